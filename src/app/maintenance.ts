import { deleteExpiredKeys } from '../store/idempotency.repository.js';
import { deleteOldCounters } from '../store/request-counters.js';
import type { Deps } from './deps.js';
import { IDEMPOTENCY_TTL_MS } from './idempotency.js';

/** Forgets what no longer matters: idempotency keys past their 24 hours (left running by a crash too), rate-limit windows past. */
export async function pruneExpired(deps: Deps): Promise<{ idempotencyKeys: number; rateLimitCounters: number }> {
  const now = deps.clock.now();
  const [idempotencyKeys, rateLimitCounters] = await Promise.all([
    deleteExpiredKeys(deps.store.db, now - IDEMPOTENCY_TTL_MS, now),
    deleteOldCounters(deps.store.db, now - 3_600_000),
  ]);
  return { idempotencyKeys, rateLimitCounters };
}
