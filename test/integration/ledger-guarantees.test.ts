import { expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS } from '../../src/app/idempotency.js';
import { pruneExpired } from '../../src/app/maintenance.js';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { insertRunningKey } from '../../src/store/idempotency.repository.js';
import { drain, storedOrder } from '../support/books.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext } from '../support/harness.js';

describeEachDialect('guarantees the database keeps by itself', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);

  it('allows one debit and one refund per order, whatever the code does', async () => {
    const account = await t.ctx.account({ credit: '100.00' });
    await checkNumbers(t.ctx, account.key, ['0744900991']);
    const placed = await recharge(t.ctx, account.key, { recharges: [{ phone_number: '0744900991', amount: 5 }] });
    const orderId: string = placed.json().orderSummary[0].rechargeId;
    await drain(createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps)));
    const order = await storedOrder(t.ctx, orderId);
    expect(order?.status).toBe('FAILED');
    const db = t.ctx.deps.store.db;
    const entry = (kind: string, amount: bigint) =>
      db.insertInto('ledger_entries').values({ account_id: account.accountId, kind, amount, balance_after: 100_00n, order_id: orderId, created_at: 1 }).execute();
    await expect(entry('refund', order!.deduction)).rejects.toThrow(/unique|constraint/i);
    await expect(entry('recharge', -order!.deduction)).rejects.toThrow(/unique|constraint/i);
    const entries = await db.selectFrom('ledger_entries').select('kind').where('order_id', '=', orderId).orderBy('id').execute();
    expect(entries.map((e) => e.kind)).toEqual(['recharge', 'refund']);
  });

  it('prunes idempotency keys a crashed request left running, once they are past their 24 hours', async () => {
    const { accountId } = await t.ctx.account();
    const now = t.ctx.clock.now();
    const old = now - IDEMPOTENCY_TTL_MS - 1;
    const db = t.ctx.deps.store.db;
    await insertRunningKey(db, { accountId, key: 'crashed-long-ago', requestHash: 'h', lockedUntil: old + 10_000, createdAt: old });
    await insertRunningKey(db, { accountId, key: 'running-now', requestHash: 'h', lockedUntil: now + 10_000, createdAt: now });
    await pruneExpired(t.ctx.deps);
    const left = await db.selectFrom('idempotency_keys').select('key').where('account_id', '=', accountId).execute();
    expect(left.map((k) => k.key)).toEqual(['running-now']);
  });
});
