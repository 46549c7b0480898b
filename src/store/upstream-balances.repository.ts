import { sql } from 'kysely';
import { big, num } from './convert.js';
import type { Db, Tx } from './database.js';

export interface UpstreamBalanceRow {
  readonly connector: string;
  readonly available: bigint | null;
  readonly currency: string | null;
  readonly checkedAt: number | null;
  readonly outOfFloatSince: number | null;
}

/** Records a balance read from an upstream. */
export async function storeBalance(db: Db, connector: string, balance: { available: bigint; currency: string; at: number }): Promise<void> {
  await db
    .insertInto('upstream_balances')
    .values({ connector, available: balance.available, currency: balance.currency, checked_at: balance.at, out_of_float_since: null })
    .onConflict((oc) => oc.column('connector').doUpdateSet({ available: balance.available, currency: balance.currency, checked_at: balance.at }))
    .execute();
}

/**
 * Marks an upstream out of float from `at`, keeping an earlier mark. Returns whether it was not marked
 * before (the moment to raise the alert).
 */
export async function markOutOfFloat(tx: Tx, connector: string, at: number): Promise<boolean> {
  const before = await tx.selectFrom('upstream_balances').select('out_of_float_since').where('connector', '=', connector).executeTakeFirst();
  if (before?.out_of_float_since !== null && before?.out_of_float_since !== undefined) return false;
  await tx
    .insertInto('upstream_balances')
    .values({ connector, available: null, currency: null, checked_at: null, out_of_float_since: at })
    .onConflict((oc) => oc.column('connector').doUpdateSet({ out_of_float_since: at }))
    .execute();
  return true;
}

/** Clears the mark once the upstream accepts orders again; returns whether there was one. */
export async function clearOutOfFloat(tx: Tx, connector: string): Promise<boolean> {
  const result = await tx
    .updateTable('upstream_balances')
    .set({ out_of_float_since: null })
    .where('connector', '=', connector)
    .where(sql<boolean>`out_of_float_since is not null`)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function listBalances(db: Db): Promise<UpstreamBalanceRow[]> {
  const rows = await db.selectFrom('upstream_balances').selectAll().orderBy('connector').execute();
  return rows.map((r) => ({
    connector: r.connector,
    available: r.available === null ? null : big(r.available),
    currency: r.currency,
    checkedAt: r.checked_at === null ? null : num(r.checked_at),
    outOfFloatSince: r.out_of_float_since === null ? null : num(r.out_of_float_since),
  }));
}
