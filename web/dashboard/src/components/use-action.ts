import { useCallback, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../api.js';
import { asApiError } from './use-load.js';

export interface Action {
  /** While one runs: for disabling its button. */
  readonly busy: boolean;
  /** The problem of the last run, until the next one starts. */
  readonly error: ApiError | undefined;
  /** Runs `work` unless one is already running (a double click runs once); its error is kept, not thrown. */
  run(work: () => Promise<void>): Promise<void>;
}

/** What every form and button of the dashboard does with a request: one at a time, its problem shown. */
export function useAction(): Action {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = useCallback(async (work: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (e) {
      setError(asApiError(e));
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}
