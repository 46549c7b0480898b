import { CompiledQuery, sql, type KyselyPlugin } from 'kysely';
import { expect, it } from 'vitest';
import { whenNextDue } from '../../src/app/fulfil-orders.js';
import type { Tx } from '../../src/store/database.js';
import { claimDueOrders } from '../../src/store/order-queue.repository.js';
import { listOrders } from '../../src/store/orders.repository.js';
import { claimDueEvents } from '../../src/store/webhooks.repository.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext } from '../support/harness.js';

describeEachDialect('query plans of the hot and the large reads', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);

  /** Runs `work` in a transaction and returns the SELECT statements it sent, compiled. */
  async function selectsOf(work: (tx: Tx) => Promise<unknown>): Promise<CompiledQuery[]> {
    const db = t.ctx.deps.store.db;
    const sent: CompiledQuery[] = [];
    const capture: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => (node.kind === 'SelectQueryNode' && sent.push(db.getExecutor().compileQuery(node, queryId)), node),
      transformResult: async ({ result }) => result,
    };
    await db.withPlugin(capture).transaction().execute(work);
    return sent;
  }

  const ROLLBACK = new Error('rolled back on purpose');

  /**
   * The plans the database chooses for statements, as text, after `setUp` ran in the same transaction
   * (nothing of which is kept). PostgreSQL is told to avoid table scans where it can.
   */
  async function plansOf(queries: readonly CompiledQuery[], setUp: (tx: Tx) => Promise<void> = async () => {}): Promise<string[]> {
    const plans: string[] = [];
    const explained = t.ctx.deps.store.db.transaction().execute(async (tx) => {
      await setUp(tx);
      if (dialect === 'postgres') await tx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
      for (const query of queries) {
        if (dialect === 'sqlite') {
          const rows = await tx.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
          plans.push(rows.rows.map((r) => r.detail).join('\n'));
        } else {
          const rows = await tx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
          plans.push(rows.rows.map((r) => r['QUERY PLAN']).join('\n'));
        }
      }
      throw ROLLBACK;
    });
    await expect(explained).rejects.toBe(ROLLBACK);
    return plans;
  }

  /** 4,000 settled orders over 500 numbers, a few FAILED and a few with a document, with statistics. */
  async function manyOrders(tx: Tx, accountId: string): Promise<void> {
    const now = t.ctx.clock.now();
    for (let first = 0; first < 4_000; first += 200) {
      const rows = Array.from({ length: 200 }, (_, k) => {
        const i = first + k;
        return {
          id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`, account_id: accountId, request_id: 'plan', array_position: 0,
          msisdn: `40744${String(i % 500).padStart(6, '0')}`, operator: 'orange', amount: 100, fast: 0, currency: 'RON', eur_ron_rate: 49773,
          vat_rate: 21, fast_fee: 0, amount_ron: 498, fast_fee_ron: 0, net_ron: 498, gross_ron: 603, amount_net: 498, amount_gross: 603,
          fee_net: 0, fee_gross: 0, deduction: 603, status: i % 50 === 0 ? 'FAILED' : 'SUCCESS', attempts: 1, next_attempt_at: now,
          claimed_by: null, operator_reference: 'PLAN', failure_reason: null, passthrough: null,
          document_id: i % 100 === 0 ? `0190a1b2-c3d4-7e5f-8a9b-${String(i).padStart(12, '0')}` : null, webhook_name: null,
          created_at: now - i, updated_at: now,
        };
      });
      await tx.insertInto('orders').values(rows).execute();
    }
    await sql`analyze orders`.execute(tx);
  }

  it('claims read their batch off the queue indexes, without reading or sorting the tables', async () => {
    const now = t.ctx.clock.now();
    const window = { now, limit: 10, workerId: 'worker_plan', claimUntil: now + 60_000 };
    const [orders] = await selectsOf((tx) => claimDueOrders(tx, window));
    const [events] = await selectsOf((tx) => claimDueEvents(tx, window));
    const plans = await plansOf([orders!, events!]);
    expect(plans[0]).toContain('orders_queue');
    expect(plans[1]).toContain('webhook_events_queue');
    for (const plan of plans) expect(plan).not.toMatch(/TEMP B-TREE|Sort/i);
  });

  it.each([
    ['document', { documentId: '0190a1b2-c3d4-7e5f-8a9b-000000000100' }, 'orders_account_document'],
    ['phone number', { msisdn: '40744000007' }, 'orders_account_msisdn'],
    ['status', { status: 'FAILED' as const }, 'orders_account_status'],
  ])('a listing filtered by %s reads its page and its count off that filter’s index, without a sort', async (_name, filter, index) => {
    const { accountId } = await t.ctx.account();
    const queries = await selectsOf((tx) => listOrders(tx, accountId, filter, { page: 1, limit: 20 }));
    expect(queries).toHaveLength(2);
    for (const plan of await plansOf(queries, (tx) => manyOrders(tx, accountId))) {
      expect(plan).toContain(index);
      expect(plan).not.toMatch(/TEMP B-TREE|Sort/i);
    }
  });

  it('an idle worker sleeps until the earliest open order is due, fast or not', async () => {
    const { key } = await t.ctx.account({ credit: '1000.00' });
    await checkNumbers(t.ctx, key, ['0744400021', '0744400022']);
    const place = async (phone_number: string, fast: boolean) => {
      const response = await recharge(t.ctx, key, { recharges: [{ phone_number, amount: 5 }], fast_recharge: fast });
      expect(response.statusCode).toBe(201);
      return response.json().orderSummary[0].rechargeId as string;
    };
    const normal = await place('0744400021', false);
    const fast = await place('0744400022', true);
    const dueAt = (id: string, at: number) => t.ctx.deps.store.db.updateTable('orders').set({ next_attempt_at: at }).where('id', '=', id).execute();
    const now = t.ctx.clock.now();

    await dueAt(normal, now + 5_000);
    await dueAt(fast, now + 9_000);
    expect(await whenNextDue(t.ctx.deps)).toBe(now + 5_000);
    await dueAt(fast, now + 2_000);
    expect(await whenNextDue(t.ctx.deps)).toBe(now + 2_000);

    await t.ctx.deps.store.db.updateTable('orders').set({ status: 'SUCCESS', operator_reference: 'TEST' }).where('id', 'in', [normal, fast]).execute();
    expect(await whenNextDue(t.ctx.deps)).toBeUndefined();
  });
});
