import { SESSION_IDLE_MS } from '../domain/dashboard-session.js';
import { deleteStaleSessions } from '../store/dashboard-sessions.repository.js';
import { deleteExpiredKeys } from '../store/idempotency.repository.js';
import { deleteOldCounters } from '../store/request-counters.js';
import type { Deps } from './deps.js';
import { IDEMPOTENCY_TTL_MS } from './idempotency.js';

/**
 * Forgets what no longer matters: idempotency keys past their 24 hours (left running by a crash too),
 * rate-limit windows past, dashboard sessions idle for 12 hours or of revoked keys (already refused).
 */
export async function pruneExpired(deps: Deps): Promise<{ idempotencyKeys: number; rateLimitCounters: number; dashboardSessions: number }> {
  const now = deps.clock.now();
  const [idempotencyKeys, rateLimitCounters, dashboardSessions] = await Promise.all([
    deleteExpiredKeys(deps.store.db, now - IDEMPOTENCY_TTL_MS, now),
    deleteOldCounters(deps.store.db, now - 3_600_000),
    deleteStaleSessions(deps.store.db, now - SESSION_IDLE_MS),
  ]);
  return { idempotencyKeys, rateLimitCounters, dashboardSessions };
}
