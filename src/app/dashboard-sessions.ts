import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '../domain/api-key.js';
import { SESSION_TOUCH_MS, sessionExpired } from '../domain/dashboard-session.js';
import { AppError } from '../domain/errors.js';
import * as sessions from '../store/dashboard-sessions.repository.js';
import type { Deps } from './deps.js';

const digestOf = (sessionId: string): string => createHash('sha256').update(sessionId).digest('hex');

/**
 * Opens a dashboard session for a caller whose API key was just checked, exactly as on the API (the
 * transport does it, with the same 401 codes and failed-attempt limit). The session id (256 random
 * bits) is returned this once, for the cookie; only its digest is stored.
 */
export async function openSession(deps: Deps, principal: Principal): Promise<string> {
  const sessionId = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  await sessions.insertSession(deps.store.db, {
    digest: digestOf(sessionId),
    keyId: principal.keyId,
    accountId: principal.accountId,
    createdAt: now,
    lastSeenAt: now,
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
    if (owner) await sessions.deleteSession(deps.store.db, digest);
    throw new AppError('invalid_session', 'Your dashboard session has ended (signed out, idle for 12 hours, or its key was revoked). Sign in again.');
  }
  if (now - owner.session.lastSeenAt >= SESSION_TOUCH_MS) await sessions.touchSession(deps.store.db, digest, now);
  return owner.principal;
}

/** Ends a session (an unknown one is already ended). */
export async function signOut(deps: Deps, sessionId: string): Promise<void> {
  await sessions.deleteSession(deps.store.db, digestOf(sessionId));
}
