import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { createDeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { drain } from '../support/books.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

describeEachDialect('webhooks over HTTP', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);
  const receiver = new Receiver();
  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => receiver.stop());
  const call = (key: string, method: 'GET' | 'POST', url: string, payload?: object) => t.ctx.call(key, { method, url, ...(payload ? { payload } : {}) });
  const deliver = async () => {
    await drain(createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps)));
    await drain(createDeliveryWorker(t.ctx.deps, { timeoutMs: 2_000, tools: { jitter: () => 0 } }));
  };

  it('registers an endpoint once (its secret shown then only), lists it, and refuses a taken name or a bad URL', async () => {
    const { key } = await t.ctx.account();
    const created = await call(key, 'POST', '/v1/webhooks', { name: 'default', url: `${receiver.url}/api-hook` });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ name: 'default', url: `${receiver.url}/api-hook`, secret: expect.stringMatching(/^whsec_/) });
    const listed = await call(key, 'GET', '/v1/webhooks');
    expect(listed.json()).toEqual({ data: [{ name: 'default', url: `${receiver.url}/api-hook`, enabled: true, disabled_reason: null, created_at: expect.any(String) }] });
    expect(listed.body).not.toContain(created.json().secret);
    const taken = await call(key, 'POST', '/v1/webhooks', { name: 'default', url: `${receiver.url}/other` });
    expect([taken.statusCode, taken.json().code]).toEqual([409, 'webhook_exists']);
    const bad = await call(key, 'POST', '/v1/webhooks', { name: 'ftp', url: 'ftp://example.com/hook' });
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'validation_failed']);
    expect((await call(key, 'POST', '/v1/webhooks', { name: 'bad name!', url: `${receiver.url}/x` })).statusCode).toBe(400);
  });

  it('lists deliveries page by page with their attempts, filters by status, and sends one again', async () => {
    const { key } = await t.ctx.account({ credit: '100.00' });
    await call(key, 'POST', '/v1/webhooks', { name: 'default', url: `${receiver.url}/deliveries` });
    await checkNumbers(t.ctx, key, ['0744500101', '0744500102', '0744500991']);
    await recharge(t.ctx, key, { recharges: ['0744500101', '0744500102', '0744500991'].map((phone_number) => ({ phone_number, amount: 5 })) });
    await deliver();
    const first = (await call(key, 'GET', '/v1/webhooks/deliveries?limit=2')).json();
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 3, total_pages: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.data[0]).toMatchObject({ id: expect.stringMatching(/^msg_/), status: 'delivered', attempts: [expect.objectContaining({ status_code: 200, outcome: 'delivered' })] });
    const second = (await call(key, 'GET', '/v1/webhooks/deliveries?limit=2&page=2')).json();
    expect(second.data).toHaveLength(1);
    expect((await call(key, 'GET', '/v1/webhooks/deliveries?status=failed')).json().pagination.total).toBe(0);
    const bogus = await call(key, 'GET', '/v1/webhooks/deliveries?status=lost');
    expect([bogus.statusCode, JSON.stringify(bogus.json())]).toEqual([400, expect.stringContaining('delivered')]);

    const id = first.data[0].id;
    const again = await call(key, 'POST', `/v1/webhooks/deliveries/${id}/redeliver`);
    expect([again.statusCode, again.json()]).toEqual([202, { id, status: 'pending' }]);
    expect((await call(key, 'GET', '/v1/webhooks/deliveries?status=pending')).json().data.map((d: { id: string }) => d.id)).toEqual([id]);
    await deliver();
    const redelivered = (await call(key, 'GET', '/v1/webhooks/deliveries')).json().data.find((d: { id: string }) => d.id === id);
    expect(redelivered).toMatchObject({ status: 'delivered' });
    expect(redelivered.attempts).toHaveLength(2);

    const stranger = await t.ctx.account();
    const foreign = await call(stranger.key, 'POST', `/v1/webhooks/deliveries/${id}/redeliver`);
    expect([foreign.statusCode, foreign.json().code]).toEqual([404, 'not_found']);
    expect((await call(stranger.key, 'GET', '/v1/webhooks/deliveries')).json().pagination.total).toBe(0);
  });

  it('turns an endpoint a 410 disabled back on; a read key may look but not touch', async () => {
    const { key } = await t.ctx.account({ credit: '100.00' });
    await call(key, 'POST', '/v1/webhooks', { name: 'default', url: `${receiver.url}/gone-then-back` });
    receiver.script('/gone-then-back', [{ status: 410 }]);
    await checkNumbers(t.ctx, key, ['0744500103']);
    await recharge(t.ctx, key, { recharges: [{ phone_number: '0744500103', amount: 5 }] });
    await deliver();
    expect((await call(key, 'GET', '/v1/webhooks')).json().data[0]).toMatchObject({ enabled: false, disabled_reason: 'answered 410 Gone' });
    const reader = (await call(key, 'POST', '/v1/keys', { scope: 'read' })).json().key;
    expect((await call(reader, 'GET', '/v1/webhooks')).statusCode).toBe(200);
    expect((await call(reader, 'POST', '/v1/webhooks/default/enable')).statusCode).toBe(403);
    expect((await call(reader, 'POST', '/v1/webhooks', { name: 'x', url: `${receiver.url}/x` })).statusCode).toBe(403);
    const enabled = await call(key, 'POST', '/v1/webhooks/default/enable');
    expect([enabled.statusCode, enabled.json()]).toEqual([200, { name: 'default', enabled: true }]);
    expect((await call(key, 'GET', '/v1/webhooks')).json().data[0]).toMatchObject({ enabled: true, disabled_reason: null });
    expect((await call(key, 'POST', '/v1/webhooks/nope/enable')).statusCode).toBe(404);
  });
});
