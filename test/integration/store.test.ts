import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { addDeposit } from '../../src/app/deposits.js';
import { findAccount } from '../../src/store/accounts.repository.js';
import { describeEachDialect, useTestContext } from '../support/harness.js';

describeEachDialect('storage', (dialect) => {
  const t = useTestContext(dialect);

  it('returns 64-bit money exactly', async () => {
    const { accountId } = await t.ctx.account();
    const huge = 9_007_199_254_740_993n; // 2^53 + 1: not representable as a double
    await t.ctx.deps.store.db.updateTable('accounts').set({ balance: huge }).where('id', '=', accountId).execute();
    expect((await findAccount(t.ctx.deps.store.db, accountId))?.balance).toBe(huge);
    await t.ctx.deps.store.db.updateTable('accounts').set({ balance: 0 }).where('id', '=', accountId).execute();
  });

  it('never lets a balance go below zero, whatever the code does', async () => {
    const { accountId } = await t.ctx.account({ credit: '1.00' });
    await expect(
      t.ctx.deps.store.db.updateTable('accounts').set({ balance: -1 }).where('id', '=', accountId).execute(),
    ).rejects.toThrow(/check/i);
    expect((await findAccount(t.ctx.deps.store.db, accountId))?.balance).toBe(100n);
  });

  it('writes a deposit, its ledger entry and the balance together', async () => {
    const { accountId } = await t.ctx.account();
    const first = await addDeposit(t.ctx.deps, { accountId, amount: '12.34', reference: 'wire 1' });
    const second = await addDeposit(t.ctx.deps, { accountId, amount: '0.66' });
    expect(first).toMatchObject({ deposit: { amount: 12_34n, currency: 'RON' }, balance: 12_34n });
    expect(second).toMatchObject({ deposit: { amount: 66n }, balance: 13_00n });
    const entries = await t.ctx.deps.store.db
      .selectFrom('ledger_entries')
      .select(['kind', 'amount', 'balance_after', 'deposit_id'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
    expect(entries.map((e) => [e.kind, Number(e.amount), Number(e.balance_after), e.deposit_id])).toEqual([
      ['deposit', 1234, 1234, first.deposit.id],
      ['deposit', 66, 1300, second.deposit.id],
    ]);
    const account = await findAccount(t.ctx.deps.store.db, accountId);
    expect(account?.totalDeposits).toBe(1300n);
    const ledgerSum = await sql<{ total: number | bigint | string }>`select sum(amount) as total from ledger_entries where account_id = ${accountId}`.execute(
      t.ctx.deps.store.db,
    );
    expect(BigInt(ledgerSum.rows[0]!.total)).toBe(account?.balance);
  });

  it.each(['0', '-5', '0.001', 'ten', '100000000.01', ''])('refuses a deposit of %j and writes nothing', async (amount) => {
    const { accountId } = await t.ctx.account();
    await expect(addDeposit(t.ctx.deps, { accountId, amount })).rejects.toMatchObject({ code: 'validation_failed' });
    expect((await findAccount(t.ctx.deps.store.db, accountId))?.balance).toBe(0n);
  });

  it('refuses a deposit to an unknown account', async () => {
    await expect(addDeposit(t.ctx.deps, { accountId: 'acc_missing', amount: '1.00' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
