import { num } from './convert.js';
import type { Db, Tx } from './database.js';

export interface NumberCheckRecord {
  readonly accountId: string;
  readonly msisdn: string;
  readonly operator: string;
  readonly checkedAt: number;
}

/** Remembers (or refreshes) a successful check of a number by an account. */
export async function rememberNumberCheck(db: Db | Tx, check: NumberCheckRecord): Promise<void> {
  await db
    .insertInto('number_checks')
    .values({ account_id: check.accountId, msisdn: check.msisdn, operator: check.operator, checked_at: check.checkedAt })
    .onConflict((oc) => oc.columns(['account_id', 'msisdn']).doUpdateSet({ operator: check.operator, checked_at: check.checkedAt }))
    .execute();
}

export async function findNumberChecks(db: Db | Tx, accountId: string, msisdns: readonly string[]): Promise<NumberCheckRecord[]> {
  if (msisdns.length === 0) return [];
  const rows = await db
    .selectFrom('number_checks')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('msisdn', 'in', [...new Set(msisdns)])
    .execute();
  return rows.map((r) => ({ accountId: r.account_id, msisdn: r.msisdn, operator: r.operator, checkedAt: num(r.checked_at) }));
}
