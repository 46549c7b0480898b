import type { Deps } from './deps.js';

/** What one pass of a worker found: more work right now, or when the next item falls due (if known). */
export type PassOutcome = { readonly busy: true } | { readonly busy: false; readonly nextDueAt: number | undefined };

export const BUSY: PassOutcome = Object.freeze({ busy: true });

export interface WorkLoop {
  readonly stopping: AbortSignal;
  start(): void;
  /** Asks the loop to stop, and resolves once its last pass (and drain) finished. */
  stop(): Promise<void>;
}

/**
 * The shape every background worker shares: passes back to back while there is work; when idle, sleep
 * until the next item falls due (at most `idlePollMs`) or until work is signalled; after a failed pass
 * (the database may be down) back off a poll interval rather than spin.
 */
export function workLoop(
  deps: Deps,
  options: {
    readonly name: string;
    readonly topic: 'orders' | 'events';
    readonly idlePollMs: number;
    readonly pass: () => Promise<PassOutcome>;
    /** Awaited after the last pass, before stop() resolves. */
    readonly drain?: () => Promise<unknown>;
  },
): WorkLoop {
  const stopping = new AbortController();
  let running: Promise<void> | undefined;

  async function run(): Promise<void> {
    while (!stopping.signal.aborted) {
      let sleepMs = options.idlePollMs;
      try {
        const outcome = await options.pass();
        if (outcome.busy) continue;
        if (outcome.nextDueAt !== undefined) sleepMs = Math.min(options.idlePollMs, Math.max(1, outcome.nextDueAt - deps.clock.now()));
      } catch (error) {
        deps.log.error({ err: error }, `${options.name} pass failed`);
      }
      if (!stopping.signal.aborted) await deps.signal.wait(options.topic, sleepMs, stopping.signal);
    }
    await options.drain?.();
  }

  return {
    stopping: stopping.signal,
    start() {
      running ??= run();
    },
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
