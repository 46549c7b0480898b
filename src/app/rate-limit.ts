import { countRequest } from '../store/rate-limits.repository.js';
import type { Deps } from './deps.js';

/** Counts a request in the shared database window; for API processes without Redis. */
export async function countInDatabase(deps: Deps, key: string, windowMs: number): Promise<{ count: number; ttlMs: number }> {
  const now = deps.clock.now();
  const { count, resetAt } = await countRequest(deps.store.db, key, now, windowMs);
  return { count, ttlMs: resetAt - now };
}
