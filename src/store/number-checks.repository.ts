import { num } from './convert.js';
import type { Db, Tx } from './database.js';
import { prepared } from './prepared.js';

export interface NumberCheckRecord {
  readonly accountId: string;
  readonly msisdn: string;
  readonly operator: string;
  readonly checkedAt: number;
}

/** Remembers (or refreshes) a successful check of a number by an account. */
const upsertCheck = prepared((db: Db, p: NumberCheckRecord) =>
  db
    .insertInto('number_checks')
    .values({ account_id: p.accountId, msisdn: p.msisdn, operator: p.operator, checked_at: p.checkedAt })
    .onConflict((oc) => oc.columns(['account_id', 'msisdn']).doUpdateSet({ operator: p.operator, checked_at: p.checkedAt })),
);

export async function rememberNumberCheck(db: Db | Tx, check: NumberCheckRecord): Promise<void> {
  await upsertCheck.execute(db, check);
}

const checksOf = prepared((db: Db, p: { accountId: string; msisdns: string[] }, size) =>
  db
    .selectFrom('number_checks')
    .selectAll()
    .where('account_id', '=', p.accountId)
    .where('msisdn', 'in', Array.from({ length: size }, (_, i) => p.msisdns[i]!)),
);

export async function findNumberChecks(db: Db | Tx, accountId: string, msisdns: readonly string[]): Promise<NumberCheckRecord[]> {
  if (msisdns.length === 0) return [];
  const unique = [...new Set(msisdns)];
  const rows = await checksOf.execute(db, { accountId, msisdns: unique }, unique.length);
  return rows.map((r) => ({ accountId: r.account_id, msisdn: r.msisdn, operator: r.operator, checkedAt: num(r.checked_at) }));
}
