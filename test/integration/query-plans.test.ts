import { CompiledQuery, type KyselyPlugin } from 'kysely';
import { expect, it } from 'vitest';
import { whenNextDue } from '../../src/app/fulfil-orders.js';
import type { Tx } from '../../src/store/database.js';
import { claimDueOrders, listOrders } from '../../src/store/orders.repository.js';
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

  /** The plan the database chooses for a statement, as text; PostgreSQL is told to avoid table scans where it can. */
  async function planOf(query: CompiledQuery): Promise<string> {
    return t.ctx.deps.store.db.transaction().execute(async (tx) => {
      if (dialect === 'sqlite') {
        const rows = await tx.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
        return rows.rows.map((r) => r.detail).join('\n');
      }
      await tx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
      const rows = await tx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  it('claims read their batch off the queue indexes, without reading or sorting the tables', async () => {
    const now = t.ctx.clock.now();
    const window = { now, limit: 10, workerId: 'worker_plan', claimUntil: now + 60_000 };
    const [orders] = await selectsOf((tx) => claimDueOrders(tx, dialect, window));
    const [events] = await selectsOf((tx) => claimDueEvents(tx, dialect, window));
    for (const [query, index] of [
      [orders!, 'orders_queue'],
      [events!, 'webhook_events_queue'],
    ] as const) {
      const plan = await planOf(query);
      expect(plan).toContain(index);
      expect(plan).not.toMatch(/TEMP B-TREE|Sort/i);
    }
  });

  it('a listing filtered by document reads its page and its count off the document index, without a sort', async () => {
    const filter = { documentId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' };
    const queries = await selectsOf((tx) => listOrders(tx, 'acc_plan', filter, { page: 1, limit: 20 }));
    expect(queries).toHaveLength(2);
    for (const query of queries) {
      const plan = await planOf(query);
      expect(plan).toContain('orders_account_document');
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
