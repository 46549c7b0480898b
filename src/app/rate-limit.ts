import type { Deps } from './deps.js';

/**
 * Counts one request against `key` in the fixed window of `windowMs` that contains now, in the store's
 * counters (shared by every process using that store). Returns the count and the time left in the window.
 */
export async function countRequest(deps: Deps, key: string, windowMs: number): Promise<{ count: number; ttlMs: number }> {
  const now = deps.clock.now();
  const { count, resetAt } = await deps.store.countRequest(key, now, windowMs);
  return { count, ttlMs: resetAt - now };
}
