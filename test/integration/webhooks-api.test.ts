import { Webhook } from 'standardwebhooks';
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
  const call = (key: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => t.ctx.call(key, { method, url, ...(payload ? { payload } : {}) });
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

  it('sends a test event, signed and logged like any other', async () => {
    const { key } = await t.ctx.account();
    const { secret } = (await call(key, 'POST', '/v1/webhooks', { name: 'default', url: `${receiver.url}/test-event` })).json();
    const sent = await call(key, 'POST', '/v1/webhooks/default/test');
    expect(sent.statusCode).toBe(202);
    const { id } = sent.json();
    expect(id).toMatch(/^msg_/);
    await deliver();
    const [received] = receiver.on('/test-event');
    expect(received!.headers['webhook-id']).toBe(id);
    expect(new Webhook(secret).verify(received!.body, received!.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test', data: { webhook: 'default' } });
    const listed = (await call(key, 'GET', '/v1/webhooks/deliveries')).json().data[0];
    expect(listed).toMatchObject({ id, type: 'webhook.test', order_id: null, status: 'delivered' });
    expect((await call(key, 'POST', '/v1/webhooks/nope/test')).statusCode).toBe(404);
  });

  it('rotates a secret: for 24 hours deliveries carry both signatures, then only the new one', async () => {
    const { key } = await t.ctx.account();
    const old = (await call(key, 'POST', '/v1/webhooks', { name: 'default', url: `${receiver.url}/rotated` })).json().secret;
    const rotated = await call(key, 'POST', '/v1/webhooks/default/rotate-secret');
    expect(rotated.statusCode).toBe(200);
    const { secret } = rotated.json();
    expect(rotated.json()).toEqual({ name: 'default', secret: expect.stringMatching(/^whsec_/) });
    expect(secret).not.toBe(old);
    await call(key, 'POST', '/v1/webhooks/default/test');
    await deliver();
    const during = receiver.on('/rotated').at(-1)!;
    const headers = during.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(during.body, headers)).toMatchObject({ type: 'webhook.test' });
    expect(new Webhook(old).verify(during.body, headers)).toMatchObject({ type: 'webhook.test' });
    t.ctx.clock.advance(24 * 3_600_000 + 1);
    await call(key, 'POST', '/v1/webhooks/default/test');
    await deliver();
    const after = receiver.on('/rotated').at(-1)!;
    expect((after.headers as Record<string, string>)['webhook-signature']).not.toContain(' ');
    expect(receiver.on('/rotated')).toHaveLength(2);
  });

  it('removes an endpoint: no longer listed nor usable, its name free again, its deliveries still listed', async () => {
    const { key } = await t.ctx.account({ credit: '100.00' });
    await call(key, 'POST', '/v1/webhooks', { name: 'erp', url: `${receiver.url}/removed` });
    const test = (await call(key, 'POST', '/v1/webhooks/erp/test')).json().id;
    expect((await call(key, 'DELETE', '/v1/webhooks/erp')).statusCode).toBe(204);
    expect((await call(key, 'GET', '/v1/webhooks')).json().data).toEqual([]);
    await deliver();
    // The test event queued before the removal is not sent: it fails as such, and stays listed.
    expect(receiver.on('/removed')).toEqual([]);
    expect((await call(key, 'GET', '/v1/webhooks/deliveries')).json().data).toEqual([expect.objectContaining({ id: test, status: 'failed' })]);
    await checkNumbers(t.ctx, key, ['0744500104']);
    const refused = await recharge(t.ctx, key, { recharges: [{ phone_number: '0744500104', amount: 5 }], webhook_name: 'erp' });
    expect([refused.statusCode, refused.json().code]).toEqual([422, 'unknown_webhook']);
    expect((await call(key, 'DELETE', '/v1/webhooks/erp')).statusCode).toBe(404);
    expect((await call(key, 'POST', '/v1/webhooks', { name: 'erp', url: `${receiver.url}/removed-again` })).statusCode).toBe(201);
  });
});
