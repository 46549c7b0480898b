import type { Deps } from './deps.js';

export interface WindowUse {
  readonly count: number;
  /** Time left in the window. */
  readonly ttlMs: number;
}

/**
 * Counts one request against `key` in the fixed window of `windowMs` that contains now, in the store's
 * counters (shared by every process using that store). Returns the count and the time left in the window.
 */
export async function countRequest(deps: Deps, key: string, windowMs: number): Promise<WindowUse> {
  const now = deps.clock.now();
  const { count, resetAt } = await deps.store.countRequest(key, now, windowMs);
  return { count, ttlMs: resetAt - now };
}

export const AUTH_FAILURE_WINDOW_MS = 60_000;

/** One more request without a valid key from this client address. */
export function countAuthFailure(deps: Deps, address: string): Promise<WindowUse> {
  return countRequest(deps, `auth-failures:${address}`, AUTH_FAILURE_WINDOW_MS);
}
