import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claimEvents } from '../../src/app/deliver-webhooks.js';
import { addWebhook, listDeliveries, redeliver } from '../../src/app/webhooks.js';
import { presentDelivery } from '../../src/contract/webhooks.js';
import { MAX_WEBHOOK_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from '../../src/domain/webhook-schedule.js';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { createDeliveryWorker, type DeliveryOptions } from '../../src/webhooks/delivery-worker.js';
import { eventsOfOrder, findEndpointByName, listAttempts } from '../../src/store/webhooks.repository.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, testDeps, useTestContext, type TestContext } from '../support/harness.js';
import { databaseEnv, topup } from '../support/cli.js';
import { Receiver } from '../support/receiver.js';

const DOC = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

describeEachDialect('webhooks', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);
  const receiver = new Receiver();
  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => receiver.stop());

  const deliveries = (options: DeliveryOptions = {}) =>
    createDeliveryWorker(t.ctx.deps, { timeoutMs: 2_000, ...options, tools: { jitter: () => 0, ...options.tools } });

  /** An account with a webhook endpoint at `path`, and one settled order reported to it. */
  async function settledOrder(path: string, number = '0744700001', name = 'default') {
    const account = await t.ctx.account({ credit: '500.00' });
    const endpoint = await addWebhook(t.ctx.deps, { accountId: account.accountId, name, url: `${receiver.url}${path}` });
    await checkNumbers(t.ctx, account.key, [number]);
    const response = await recharge(t.ctx, account.key, {
      recharges: [{ phone_number: number, amount: 5 }],
      passthrough: { document_id: DOC, erp: 'SO-1' },
      ...(name === 'default' ? {} : { webhook_name: name }),
    });
    expect(response.statusCode).toBe(201);
    const orderId: string = response.json().orderSummary[0].rechargeId;
    await createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps)).runOnce();
    const [event] = await eventsOfOrder(t.ctx.deps.store.db, orderId);
    return { ...account, endpoint, orderId, event: event! };
  }

  it('delivers recharge.succeeded signed both ways, to the default endpoint', async () => {
    const { endpoint, orderId, event } = await settledOrder('/ok');
    expect(event).toMatchObject({ type: 'recharge.succeeded', status: 'pending' });
    expect(await deliveries().runOnce()).toBe(1);
    const [request] = receiver.on('/ok');
    expect(request).toBeDefined();
    const headers = request!.headers as Record<string, string>;
    // Standard Webhooks, verified by the reference library itself.
    expect(new Webhook(endpoint.secret).verify(request!.body, headers)).toMatchObject({ type: 'recharge.succeeded' });
    expect(headers['webhook-id']).toBe(event.id);
    // The legacy scheme: hex HMAC-SHA256 keyed with the secret string as issued.
    expect(headers['x-signature']).toBe(createHmac('sha256', endpoint.secret).update(request!.body).digest('hex'));
    expect(JSON.parse(request!.body)).toEqual({
      type: 'recharge.succeeded',
      timestamp: expect.stringMatching(/Z$/),
      data: expect.objectContaining({
        recharge_uuid: orderId,
        number: '40744700001',
        network: 'orange',
        amount: 5,
        currency: 'EUR',
        recharge_status: 'SUCCESS',
        failure_reason: null,
        passthrough: { document_id: DOC, erp: 'SO-1' },
      }),
    });
    const attempts = await listAttempts(t.ctx.deps.store.db, event.id);
    expect(attempts).toEqual([expect.objectContaining({ statusCode: 200, outcome: 'delivered', error: null })]);
    expect((await eventsOfOrder(t.ctx.deps.store.db, orderId))[0]).toMatchObject({ status: 'delivered', deliveredAt: t.ctx.clock.now() });
  });

  it('delivers recharge.failed with the failure reason to the named endpoint', async () => {
    const { event } = await settledOrder('/named', '0744700991', 'erp');
    expect(event.type).toBe('recharge.failed');
    await deliveries().runOnce();
    const body = JSON.parse(receiver.on('/named')[0]!.body);
    expect(body).toMatchObject({ type: 'recharge.failed', data: { recharge_status: 'FAILED', failure_reason: 'operator_declined' } });
  });

  it('sends no event for an order placed without any endpoint', async () => {
    const account = await t.ctx.account({ credit: '100.00' });
    await checkNumbers(t.ctx, account.key, ['0744700002']);
    const id = (await recharge(t.ctx, account.key, { recharges: [{ phone_number: '0744700002', amount: 5 }] })).json().orderSummary[0].rechargeId;
    await createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps)).runOnce();
    expect(await eventsOfOrder(t.ctx.deps.store.db, id)).toEqual([]);
  });

  it('retries a failing receiver with the same webhook-id until it recovers', async () => {
    receiver.script('/flaky', [{ status: 500 }, { status: 503, headers: { 'retry-after': '120' } }]);
    const { endpoint, event } = await settledOrder('/flaky');
    const worker = deliveries();
    await worker.runOnce();
    let [state] = await eventsOfOrder(t.ctx.deps.store.db, event.orderId);
    expect(state).toMatchObject({ status: 'pending', lastStatusCode: 500, nextAttemptAt: t.ctx.clock.now() + WEBHOOK_RETRY_DELAYS_MS[0]! });
    expect(await worker.runOnce()).toBe(0);
    t.ctx.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]!);
    await worker.runOnce();
    [state] = await eventsOfOrder(t.ctx.deps.store.db, event.orderId);
    // A Retry-After of 120 s is shorter than the schedule's 5 minutes, so the schedule stands.
    expect(state).toMatchObject({ status: 'pending', lastStatusCode: 503, nextAttemptAt: t.ctx.clock.now() + WEBHOOK_RETRY_DELAYS_MS[1]! });
    t.ctx.clock.advance(WEBHOOK_RETRY_DELAYS_MS[1]!);
    await worker.runOnce();
    const requests = receiver.on('/flaky');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([event.id]));
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(requests.map((r) => r.headers['webhook-timestamp'])).size).toBe(3);
    // Each attempt is signed with its own timestamp (byte-for-byte what the reference library signs).
    for (const r of requests) {
      const timestamp = new Date(Number(r.headers['webhook-timestamp']) * 1000);
      expect(r.headers['webhook-signature']).toBe(new Webhook(endpoint.secret).sign(event.id, timestamp, r.body));
    }
    expect((await eventsOfOrder(t.ctx.deps.store.db, event.orderId))[0]?.status).toBe('delivered');
  });

  it('honours a Retry-After longer than the schedule', async () => {
    receiver.script('/busy', [{ status: 429, headers: { 'retry-after': '3600' } }]);
    const { event } = await settledOrder('/busy');
    await deliveries().runOnce();
    expect((await eventsOfOrder(t.ctx.deps.store.db, event.orderId))[0]?.nextAttemptAt).toBe(t.ctx.clock.now() + 3_600_000);
  });

  it('fails after the whole schedule, lists the failure and delivers again when asked', async () => {
    receiver.script('/down', [], { status: 503 });
    const { event, accountId } = await settledOrder('/down');
    const worker = deliveries();
    for (let attempt = 1; attempt <= MAX_WEBHOOK_ATTEMPTS; attempt++) {
      await worker.runOnce();
      expect(await listAttempts(t.ctx.deps.store.db, event.id)).toHaveLength(attempt);
      t.ctx.clock.advance(WEBHOOK_RETRY_DELAYS_MS[attempt - 1] ?? 0);
    }
    await worker.runOnce();
    expect(await listAttempts(t.ctx.deps.store.db, event.id)).toHaveLength(MAX_WEBHOOK_ATTEMPTS);
    const [failed] = (await listDeliveries(t.ctx.deps, accountId, { status: 'failed' })).map((d) => presentDelivery(d.event, d.attempts));
    expect(failed).toMatchObject({ id: event.id, status: 'failed', next_attempt_at: null });
    expect(failed!.attempts).toHaveLength(MAX_WEBHOOK_ATTEMPTS);
    expect(failed!.attempts.every((a) => a.status_code === 503)).toBe(true);
    receiver.script('/down', []);
    const cli = await topup(databaseEnv(t.ctx.database.target), 'webhooks', 'redeliver', event.id, '--json');
    expect(cli.stderr).toBe('');
    expect(JSON.parse(cli.stdout)).toEqual({ id: event.id, status: 'pending' });
    await worker.runOnce();
    expect((await eventsOfOrder(t.ctx.deps.store.db, event.orderId))[0]?.status).toBe('delivered');
    expect(receiver.on('/down')).toHaveLength(MAX_WEBHOOK_ATTEMPTS + 1);
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    receiver.script('/gone', [{ status: 410 }]);
    const { event, accountId } = await settledOrder('/gone');
    await deliveries().runOnce();
    expect((await eventsOfOrder(t.ctx.deps.store.db, event.orderId))[0]).toMatchObject({ status: 'failed', lastStatusCode: 410 });
    expect((await findEndpointByName(t.ctx.deps.store.db, accountId, 'default'))?.disabledReason).toBe('answered 410 Gone');
    // Deliveries to the disabled endpoint fail without a request.
    const before = receiver.on('/gone').length;
    await redeliver(t.ctx.deps, event.id);
    await deliveries().runOnce();
    expect(receiver.on('/gone')).toHaveLength(before);
    expect((await listAttempts(t.ctx.deps.store.db, event.id)).at(-1)).toMatchObject({ error: 'endpoint_disabled', outcome: 'fail' });
  });

  it('does not follow redirects', async () => {
    receiver.script('/moved', [{ status: 302, headers: { location: `${receiver.url}/elsewhere` } }]);
    const { event } = await settledOrder('/moved');
    await deliveries().runOnce();
    expect(receiver.on('/moved')).toHaveLength(1);
    expect(receiver.on('/elsewhere')).toHaveLength(0);
    expect((await eventsOfOrder(t.ctx.deps.store.db, event.orderId))[0]).toMatchObject({ status: 'pending', lastStatusCode: 302 });
  });

  it('times a slow receiver out without holding up other deliveries', async () => {
    receiver.script('/slow', ['hang']);
    const slow = await settledOrder('/slow');
    const fast = await settledOrder('/fast');
    const worker = deliveries({ timeoutMs: 1_500, idlePollMs: 20 });
    worker.start();
    const status = async (c: { event: { orderId: string } }) => (await eventsOfOrder(t.ctx.deps.store.db, c.event.orderId))[0]!;
    for (let i = 0; i < 300 && (await status(fast)).status !== 'delivered'; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await status(fast)).status).toBe('delivered');
    // The slow delivery is still in flight: claimed, no attempt recorded yet.
    expect(await listAttempts(t.ctx.deps.store.db, slow.event.id)).toEqual([]);
    for (let i = 0; i < 400 && (await listAttempts(t.ctx.deps.store.db, slow.event.id)).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await worker.stop();
    expect(await listAttempts(t.ctx.deps.store.db, slow.event.id)).toEqual([expect.objectContaining({ statusCode: null, error: 'timeout after 1500 ms', outcome: 'retry' })]);
  });

  it('delivers an event whose delivery worker died after claiming it', async () => {
    const { event } = await settledOrder('/revived');
    const claimed = await claimEvents(t.ctx.deps, 'dead_worker', 100, 60_000);
    expect(claimed.map((e) => e.id)).toContain(event.id);
    await deliveries().runOnce();
    expect(receiver.on('/revived')).toHaveLength(0);
    t.ctx.clock.advance(60_001);
    await deliveries().runOnce();
    expect(receiver.on('/revived')).toHaveLength(1);
    expect((await eventsOfOrder(t.ctx.deps.store.db, event.orderId))[0]?.status).toBe('delivered');
  });
});

describeEachDialect('webhooks after a restart', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);

  it('delivers an event written before the process died', async () => {
    const receiver = await new Receiver().start();
    try {
      const account = await t.ctx.account({ credit: '100.00' });
      await addWebhook(t.ctx.deps, { accountId: account.accountId, name: 'default', url: `${receiver.url}/after-crash` });
      await checkNumbers(t.ctx, account.key, ['0744700100']);
      await recharge(t.ctx, account.key, { recharges: [{ phone_number: '0744700100', amount: 5 }] });
      // The status change commits with its event; the process dies before any delivery.
      await createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps)).runOnce();
      await t.ctx.deps.store.close();
      const restarted = await testDeps(t.ctx.database.target, FAST_SIMULATOR, { clock: t.ctx.clock });
      (t.ctx as { deps: TestContext['deps'] }).deps = restarted;
      expect(await createDeliveryWorker(restarted).runOnce()).toBe(1);
      expect(receiver.on('/after-crash')).toHaveLength(1);
    } finally {
      await receiver.stop();
    }
  });
});
