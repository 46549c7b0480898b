import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { claimOrders } from '../../src/app/fulfil-orders.js';
import { claimEvents } from '../../src/app/deliver-webhooks.js';
import { addWebhook } from '../../src/app/webhooks.js';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { createDeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { startWorkers } from '../../src/workers.js';
import { drain } from '../support/books.js';
import { checkNumbers, closeTestContext, describeEachDialect, FAST_SIMULATOR, openTestContext, recharge, type TestContext } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

/** The value of one sample of the scrape, e.g. `topup_orders_open{status="PENDING"}`; undefined if absent. */
async function sample(ctx: TestContext, series: string): Promise<number | undefined> {
  const response = await ctx.call(undefined, { method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  const line = response.body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describeEachDialect('metrics of the work', (dialect) => {
  // A fresh service for each test: the counters are per process, and each test reads them from zero.
  const t = { ctx: undefined as unknown as TestContext };
  beforeEach(async () => {
    t.ctx = await openTestContext(dialect, FAST_SIMULATOR);
  });
  afterEach(async () => closeTestContext(t.ctx));
  const receiver = new Receiver();
  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => receiver.stop());
  const worker = () => createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps), { batchSize: 10 });

  /** Orders the simulator settles as: success, declined (failed), unavailable (retried later). */
  async function placeThree() {
    const account = await t.ctx.account({ credit: '500.00' });
    const numbers = ['0744500001', '0744500991', '0744500993'];
    await checkNumbers(t.ctx, account.key, numbers);
    const response = await recharge(t.ctx, account.key, { recharges: numbers.map((phone_number) => ({ phone_number, amount: 5 })) });
    expect(response.statusCode).toBe(201);
    return account;
  }

  it('reports the backlog, how long it has waited, and what the operator answered', async () => {
    await placeThree();
    expect(await sample(t.ctx, 'topup_orders_open{status="PENDING"}')).toBe(3);
    expect(await sample(t.ctx, 'topup_orders_open{status="PROCESSING"}')).toBe(0);
    t.ctx.clock.advance(7_000);
    expect(await sample(t.ctx, 'topup_orders_oldest_due_seconds')).toBe(7);

    await drain(worker());
    expect(await sample(t.ctx, 'topup_orders_open{status="PENDING"}')).toBe(1); // the retried one, not yet due
    expect(await sample(t.ctx, 'topup_orders_oldest_due_seconds')).toBe(0);
    expect(await sample(t.ctx, 'topup_orders_settled_total{status="SUCCESS"}')).toBe(1);
    expect(await sample(t.ctx, 'topup_orders_settled_total{status="FAILED"}')).toBe(1);
    for (const outcome of ['success', 'failed', 'retry']) {
      expect(await sample(t.ctx, `topup_operator_call_duration_seconds_count{connector="simulator",outcome="${outcome}"}`)).toBe(1);
    }
    expect(await sample(t.ctx, 'topup_claims_taken_over_total{queue="orders"}')).toBe(0);
  });

  it('counts the claims of a dead worker taken over', async () => {
    await placeThree();
    expect(await claimOrders(t.ctx.deps, 'worker_dead', 10, 15_000)).toHaveLength(3);
    expect(await sample(t.ctx, 'topup_orders_open{status="PROCESSING"}')).toBe(3);
    t.ctx.clock.advance(15_001);
    await drain(worker());
    expect(await sample(t.ctx, 'topup_claims_taken_over_total{queue="orders"}')).toBe(3);
  });

  it('reports webhook deliveries pending and failed, and the attempts by outcome', async () => {
    const account = await t.ctx.account({ credit: '500.00' });
    await addWebhook(t.ctx.deps, { accountId: account.accountId, name: 'default', url: `${receiver.url}/metrics-gone` });
    receiver.script('/metrics-gone', [], { status: 410 });
    await checkNumbers(t.ctx, account.key, ['0744500002', '0744500003']);
    await recharge(t.ctx, account.key, { recharges: ['0744500002', '0744500003'].map((phone_number) => ({ phone_number, amount: 5 })) });
    await drain(worker());
    expect(await sample(t.ctx, 'topup_webhook_deliveries{status="pending"}')).toBe(2);
    t.ctx.clock.advance(3_000);
    expect(await sample(t.ctx, 'topup_webhook_oldest_due_seconds')).toBe(3);

    // One delivery claimed by a worker that dies, then taken over; the receiver answers 410 Gone, which
    // disables the endpoint (a delivery attempted after that fails without being sent).
    expect(await claimEvents(t.ctx.deps, 'dead_worker', 1, 10_000)).toHaveLength(1);
    t.ctx.clock.advance(10_001);
    await drain(createDeliveryWorker(t.ctx.deps, { timeoutMs: 2_000, tools: { jitter: () => 0 } }));
    expect(await sample(t.ctx, 'topup_webhook_deliveries{status="pending"}')).toBe(0);
    expect(await sample(t.ctx, 'topup_webhook_deliveries{status="failed"}')).toBe(2);
    const disabled = (await sample(t.ctx, 'topup_webhook_attempts_total{outcome="disable"}')) ?? 0;
    const failed = (await sample(t.ctx, 'topup_webhook_attempts_total{outcome="fail"}')) ?? 0;
    expect(disabled).toBeGreaterThanOrEqual(1);
    expect(disabled + failed).toBe(2);
    expect(await sample(t.ctx, 'topup_claims_taken_over_total{queue="webhooks"}')).toBe(1);
  });

  it('shows the LISTEN state only in a process that runs workers', async () => {
    expect(await sample(t.ctx, 'topup_listen_connected')).toBeUndefined();
    const workers = await startWorkers(t.ctx.deps);
    try {
      expect(await sample(t.ctx, 'topup_listen_connected')).toBe(1);
    } finally {
      await workers.stop();
    }
  });
});
