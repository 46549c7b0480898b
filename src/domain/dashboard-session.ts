import type { Principal } from './api-key.js';

/** A dashboard session ends after 12 hours without a request. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** Sessions one key may have at once; signing in past it ends that key's least recently used one. */
export const MAX_SESSIONS_PER_KEY = 20;
/** Its last use is written at most once a minute: a page of the dashboard makes several requests. */
export const SESSION_TOUCH_MS = 60 * 1000;

/**
 * A browser's sign-in to the dashboard, made by exchanging an API key. The session id itself lives
 * only in the browser's cookie; the store keeps its digest, and the session acts as the key it came
 * from (same account, same scope), for as long as that key is not revoked.
 */
export interface DashboardSession {
  readonly digest: string;
  readonly keyId: string;
  readonly accountId: string;
  readonly createdAt: number;
  readonly lastSeenAt: number;
}

/** A session found by its digest, with the principal of its key (`keyRevoked` when the key is gone). */
export interface SessionOwner {
  readonly session: DashboardSession;
  readonly principal: Principal;
  readonly keyRevoked: boolean;
}

export function sessionExpired(session: DashboardSession, now: number): boolean {
  return now - session.lastSeenAt >= SESSION_IDLE_MS;
}
