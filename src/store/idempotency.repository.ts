import { num } from './convert.js';
import type { Db, Tx } from './database.js';

export interface IdempotencyRecord {
  readonly accountId: string;
  readonly key: string;
  readonly requestHash: string;
  readonly state: 'running' | 'done';
  readonly statusCode: number | null;
  readonly response: string | null;
  readonly lockedUntil: number;
  readonly createdAt: number;
}

export async function findIdempotencyRecord(db: Db, accountId: string, key: string): Promise<IdempotencyRecord | undefined> {
  const row = await db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
  return (
    row && {
      accountId: row.account_id,
      key: row.key,
      requestHash: row.request_hash,
      state: row.state as 'running' | 'done',
      statusCode: row.status_code === null ? null : num(row.status_code),
      response: row.response,
      lockedUntil: num(row.locked_until),
      createdAt: num(row.created_at),
    }
  );
}

/** Claims a key for a new request; false when another request holds it (the primary key decides). */
export async function insertRunningKey(
  db: Db | Tx,
  record: { accountId: string; key: string; requestHash: string; lockedUntil: number; createdAt: number },
): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({
      account_id: record.accountId,
      key: record.key,
      request_hash: record.requestHash,
      state: 'running',
      locked_until: record.lockedUntil,
      created_at: record.createdAt,
    })
    .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/**
 * Takes over a key whose holder died (its lock ran out while still running) or whose record expired;
 * false when someone else got there first.
 */
export async function takeOverKey(
  db: Db | Tx,
  record: { accountId: string; key: string; requestHash: string; lockedUntil: number; createdAt: number },
  staleBefore: { now: number; expiredBefore: number },
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ request_hash: record.requestHash, state: 'running', status_code: null, response: null, locked_until: record.lockedUntil, created_at: record.createdAt })
    .where('account_id', '=', record.accountId)
    .where('key', '=', record.key)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'running'), eb('locked_until', '<', staleBefore.now)]),
        eb('created_at', '<', staleBefore.expiredBefore),
      ]),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Stores the response in the same transaction as the orders it describes, only if this request
 * still holds the key (its lock, `lockedUntil`, is its token); false means it was taken over.
 */
export async function completeKey(
  tx: Tx,
  holder: { accountId: string; key: string; lockedUntil: number },
  statusCode: number,
  response: string,
): Promise<boolean> {
  const result = await tx
    .updateTable('idempotency_keys')
    .set({ state: 'done', status_code: statusCode, response })
    .where('account_id', '=', holder.accountId)
    .where('key', '=', holder.key)
    .where('state', '=', 'running')
    .where('locked_until', '=', holder.lockedUntil)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A request that failed stored nothing and keeps no key. */
export async function releaseKey(db: Db | Tx, holder: { accountId: string; key: string; lockedUntil: number }): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', holder.accountId)
    .where('key', '=', holder.key)
    .where('state', '=', 'running')
    .where('locked_until', '=', holder.lockedUntil)
    .execute();
}

/**
 * Forgets keys older than `createdBefore`: finished ones, and running ones whose holder is long gone
 * (a process that crashed while holding a key leaves it running; its lock ran out long ago).
 */
export async function deleteExpiredKeys(db: Db, createdBefore: number, now: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', createdBefore)
    .where((eb) => eb.or([eb('state', '=', 'done'), eb('locked_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
