import { expect, it } from 'vitest';
import type { Db } from '../../src/store/database.js';
import { prepared } from '../../src/store/prepared.js';
import { describeEachDialect, useTestContext } from '../support/harness.js';

describeEachDialect('prepared queries', (dialect) => {
  const t = useTestContext(dialect);

  const checksOf = prepared((db: Db, p: { accountId: string; msisdns: string[] }, size) =>
    db
      .selectFrom('number_checks')
      .select(['msisdn', 'operator'])
      .where('account_id', '=', p.accountId)
      .where('msisdn', 'in', Array.from({ length: size }, (_, i) => p.msisdns[i]!))
      .where('operator', '!=', 'digi') // a constant, compiled once and kept
      .orderBy('msisdn'),
  );
  const remember = prepared((db: Db, p: { rows: Array<{ account_id: string; msisdn: string; operator: string; checked_at: number }> }, size) =>
    db.insertInto('number_checks').values(
      Array.from({ length: size }, (_, i) => {
        const r = p.rows[i]!;
        return { account_id: r.account_id, msisdn: r.msisdn, operator: r.operator, checked_at: r.checked_at };
      }),
    ),
  );

  it('binds fresh values on every run, inside and outside a transaction, for every size', async () => {
    const { accountId } = await t.ctx.account();
    const other = await t.ctx.account();
    const row = (account: string, msisdn: string, operator: string) => ({ account_id: account, msisdn, operator, checked_at: 1 });
    await remember.execute(t.ctx.deps.store.db, { rows: [row(accountId, '40744000001', 'orange'), row(accountId, '40744000002', 'digi')] }, 2);
    await t.ctx.deps.store.transact((tx) => remember.execute(tx, { rows: [row(other.accountId, '40744000001', 'vodafone')] }, 1));

    const db = t.ctx.deps.store.db;
    expect(await checksOf.execute(db, { accountId, msisdns: ['40744000001'] }, 1)).toEqual([{ msisdn: '40744000001', operator: 'orange' }]);
    expect(await checksOf.execute(db, { accountId: other.accountId, msisdns: ['40744000001'] }, 1)).toEqual([
      { msisdn: '40744000001', operator: 'vodafone' },
    ]);
    expect(await checksOf.execute(db, { accountId, msisdns: ['40744000001', '40744000002'] }, 2)).toEqual([{ msisdn: '40744000001', operator: 'orange' }]);
    expect(await t.ctx.deps.store.transact((tx) => checksOf.execute(tx, { accountId, msisdns: ['40744000009'] }, 1))).toEqual([]);
  });

  it('refuses to run with a parameter missing rather than bind nothing', async () => {
    const { accountId } = await t.ctx.account();
    await expect(checksOf.execute(t.ctx.deps.store.db, { accountId, msisdns: [] }, 1)).rejects.toThrow(/no parameter at msisdns\.0/);
  });
});
