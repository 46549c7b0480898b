import { randomBytes } from 'node:crypto';
import type { Principal } from '../domain/api-key.js';
import { MAX_SESSIONS_PER_KEY, SESSION_TOUCH_MS, sessionExpired } from '../domain/dashboard-session.js';
import { AppError } from '../domain/errors.js';
import * as sessions from '../store/dashboard-sessions.repository.js';
import type { Deps } from './deps.js';
import { digestOf } from './ids.js';

/**
 * Opens a dashboard session for a caller whose API key was just checked, exactly as on the API (the
 * transport does it, with the same 401 codes and failed-attempt limit). The session id (256 random
 * bits) is returned this once, for the cookie; only its digest is stored. A session the browser
 * still held is ended in the same write: signing in again never leaves the old one behind. A key has
 * at most MAX_SESSIONS_PER_KEY sessions: past it, its least recently used one ends, so one key cannot
 * fill the table however often it signs in.
 */
export async function openSession(deps: Deps, principal: Principal, previousSessionId?: string): Promise<string> {
  const sessionId = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const session = { digest: digestOf(sessionId), keyId: principal.keyId, accountId: principal.accountId, createdAt: now, lastSeenAt: now };
  await deps.store.write(async (db) => {
    if (previousSessionId !== undefined) await sessions.deleteSession(db, digestOf(previousSessionId));
    await sessions.insertSession(db, session);
    await sessions.trimSessions(db, principal.keyId, MAX_SESSIONS_PER_KEY);
  });
  return sessionId;
}

/**
 * The principal of a session, or 401 `invalid_session` when there is no such session, it has been
 * idle for 12 hours, or its key has been revoked (read on every request: revocation ends a session at
 * once, in every process). Its last use is written at most once a minute.
 */
export async function sessionPrincipal(deps: Deps, sessionId: string): Promise<Principal> {
  const digest = digestOf(sessionId);
  const owner = await sessions.findSessionOwner(deps.store.db, digest);
  const now = deps.clock.now();
  if (!owner || owner.keyRevoked || sessionExpired(owner.session, now)) {
    if (owner) await deps.store.write((db) => sessions.deleteSession(db, digest));
    throw new AppError('invalid_session', 'Your dashboard session has ended (signed out, idle for 12 hours, or its key was revoked). Sign in again.');
  }
  // Once a minute per session, through the group commit: a page's bursts of requests write nothing.
  if (now - owner.session.lastSeenAt >= SESSION_TOUCH_MS) await deps.store.write((db) => sessions.touchSession(db, digest, now));
  return owner.principal;
}

/** Ends a session (an unknown one is already ended). */
export async function signOut(deps: Deps, sessionId: string): Promise<void> {
  await deps.store.write((db) => sessions.deleteSession(db, digestOf(sessionId)));
}
