import { expect, it } from 'vitest';
import { audit } from '../../src/app/audit.js';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { databaseEnv, topup } from '../support/cli.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext, type TestContext } from '../support/harness.js';

async function busyAccount(ctx: TestContext) {
  const account = await ctx.account({ credit: '500.00' });
  await checkNumbers(ctx, account.key, ['0744910001', '0744910991']);
  const placed = await recharge(ctx, account.key, {
    recharges: [{ phone_number: '0744910001', amount: 5 }, { phone_number: '0744910991', amount: 7, fast_recharge: true }],
  });
  await createFulfilmentWorker(ctx.deps, createUpstreams(ctx.deps)).runOnce();
  return { ...account, ids: placed.json().orderSummary.map((o: { rechargeId: string }) => o.rechargeId) as string[] };
}

describeEachDialect('topup audit', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);

  it('finds clean books clean, from the CLI too', async () => {
    const { accountId } = await busyAccount(t.ctx);
    expect(await audit(t.ctx.deps, accountId)).toEqual({ ok: true, accounts: 1, orders: 2, problems: [] });
    const cli = await topup(databaseEnv(t.ctx.database.target), 'audit', '--account', accountId, '--json');
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual({ ok: true, accounts: 1, orders: 2, problems: [] });
  });

  it('reports every kind of difference and exits 1', async () => {
    const { accountId, ids } = await busyAccount(t.ctx);
    const db = t.ctx.deps.store.db;
    const snapshot = await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
    const orders = await db.selectFrom('orders').selectAll().where('id', 'in', ids).execute();
    // A balance that drifted by a cent, a total that drifted, a refund that went missing, a success without reference.
    await db.updateTable('accounts').set((eb) => ({ balance: eb('balance', '+', 1), orders_amount_net: eb('orders_amount_net', '+', 5) })).where('id', '=', accountId).execute();
    await db.deleteFrom('ledger_entries').where('order_id', '=', ids[1]!).where('kind', '=', 'refund').execute();
    await db.updateTable('orders').set({ operator_reference: null }).where('id', '=', ids[0]!).execute();
    const report = await audit(t.ctx.deps, accountId);
    expect(report.ok).toBe(false);
    const checks = report.problems.map((p) => p.check);
    expect(checks).toEqual(
      expect.arrayContaining([
        'balance = sum of ledger entries',
        'balance = deposits − deductions of orders not FAILED',
        'totalAmountNet',
        'one debit, and one refund if FAILED',
        'possible state',
      ]),
    );
    const cli = await topup(databaseEnv(t.ctx.database.target), 'audit', '--account', accountId, '--json');
    expect(cli.code).toBe(1);
    expect(JSON.parse(cli.stdout).ok).toBe(false);
    // Put the books back as they were, so the suite's closing audit passes.
    const { id: _id, ...restore } = snapshot;
    await db.updateTable('accounts').set(restore).where('id', '=', accountId).execute();
    const failed = orders.find((o) => o.id === ids[1])!;
    const debit = await db.selectFrom('ledger_entries').select('balance_after').where('order_id', '=', failed.id).executeTakeFirstOrThrow();
    await db
      .insertInto('ledger_entries')
      .values({ account_id: accountId, kind: 'refund', amount: failed.deduction, balance_after: BigInt(debit.balance_after) + BigInt(failed.deduction), order_id: failed.id, deposit_id: null, created_at: Date.now() })
      .execute();
    await db.updateTable('orders').set({ operator_reference: orders.find((o) => o.id === ids[0])!.operator_reference }).where('id', '=', ids[0]!).execute();
    expect((await audit(t.ctx.deps, accountId)).ok).toBe(true);
  });
});
