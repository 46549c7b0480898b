import type { Currency } from '../domain/currency.js';
import type { DashboardSession, SessionOwner } from '../domain/dashboard-session.js';
import type { KeyScope } from '../domain/api-key.js';
import type { Environment } from '../domain/environment.js';
import { num } from './convert.js';
import type { Db } from './database.js';

export async function insertSession(db: Db, session: DashboardSession): Promise<void> {
  await db
    .insertInto('dashboard_sessions')
    .values({
      digest: session.digest,
      api_key_id: session.keyId,
      account_id: session.accountId,
      created_at: session.createdAt,
      last_seen_at: session.lastSeenAt,
    })
    .execute();
}

/** The session with this digest and what its key says of the caller (revoked or not). */
export async function findSessionOwner(db: Db, digest: string): Promise<SessionOwner | undefined> {
  const row = await db
    .selectFrom('dashboard_sessions')
    .innerJoin('api_keys', 'api_keys.id', 'dashboard_sessions.api_key_id')
    .innerJoin('accounts', 'accounts.id', 'dashboard_sessions.account_id')
    .select([
      'dashboard_sessions.digest',
      'dashboard_sessions.api_key_id',
      'dashboard_sessions.account_id',
      'dashboard_sessions.created_at',
      'dashboard_sessions.last_seen_at',
      'api_keys.environment',
      'api_keys.scope',
      'api_keys.revoked_at',
      'accounts.currency',
    ])
    .where('dashboard_sessions.digest', '=', digest)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    session: {
      digest: row.digest,
      keyId: row.api_key_id,
      accountId: row.account_id,
      createdAt: num(row.created_at),
      lastSeenAt: num(row.last_seen_at),
    },
    principal: {
      keyId: row.api_key_id,
      accountId: row.account_id,
      currency: row.currency as Currency,
      environment: row.environment as Environment,
      scope: row.scope as KeyScope,
    },
    keyRevoked: row.revoked_at !== null,
  };
}

/** Keeps the `keep` most recently used sessions of a key and deletes the others; returns how many went. */
export async function trimSessions(db: Db, keyId: string, keep: number): Promise<number> {
  const kept = db.selectFrom('dashboard_sessions').select('digest').where('api_key_id', '=', keyId).orderBy('last_seen_at', 'desc').orderBy('digest').limit(keep);
  const result = await db
    .deleteFrom('dashboard_sessions')
    .where('api_key_id', '=', keyId)
    .where('digest', 'not in', kept)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function touchSession(db: Db, digest: string, at: number): Promise<void> {
  await db.updateTable('dashboard_sessions').set({ last_seen_at: at }).where('digest', '=', digest).execute();
}

export async function deleteSession(db: Db, digest: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('digest', '=', digest).execute();
}

/** Forgets sessions idle since before `before`, and those of revoked keys; returns how many. */
export async function deleteStaleSessions(db: Db, before: number): Promise<number> {
  const idle = await db.deleteFrom('dashboard_sessions').where('last_seen_at', '<', before).executeTakeFirst();
  const revoked = await db
    .deleteFrom('dashboard_sessions')
    .where('api_key_id', 'in', (eb) => eb.selectFrom('api_keys').select('id').where('revoked_at', 'is not', null))
    .executeTakeFirst();
  return Number(idle.numDeletedRows + revoked.numDeletedRows);
}
