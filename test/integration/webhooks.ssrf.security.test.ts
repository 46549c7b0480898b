import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HostResolver } from '../../src/app/ports.js';
import { addWebhook } from '../../src/app/webhooks.js';
import { isPublicAddress } from '../../src/domain/address-policy.js';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { eventsOfOrder, listAttempts } from '../../src/store/webhooks.repository.js';
import { createDeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { sendWebhook } from '../../src/webhooks/http-sender.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';

/** DNS as an attacker would arrange it. */
const dns = new Map<string, string[]>([
  ['localhost', ['127.0.0.1', '::1']],
  ['public.example', ['93.184.216.34']],
  ['metadata.google.internal', ['169.254.169.254']],
  ['internal.example', ['10.1.2.3']],
  ['rebind.example', ['93.184.216.34', '127.0.0.1']],
  ['v6-private.example', ['fd12:3456:789a::1']],
  ['mapped.example', ['::ffff:192.168.0.1']],
]);
let flipped = new Map<string, string[]>();
/** Names whose lookup runs past the resolver's deadline (what `systemResolver` rejects with then). */
let stalled = new Set<string>();
const resolver: HostResolver = async (host) => {
  if (stalled.has(host)) throw new Error(`DNS lookup of ${host} took longer than 5000 ms`);
  const found = flipped.get(host) ?? dns.get(host);
  if (found) return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  if (/^[\d.]+$/.test(host)) return [{ address: host, family: 4 }];
  if (host.includes(':')) return [{ address: host, family: 6 }];
  throw new Error(`ENOTFOUND ${host}`);
};

describeEachDialect('webhook URLs when private addresses are not allowed', (dialect) => {
  const t = useTestContext(dialect, { ...FAST_SIMULATOR, TOPUP_WEBHOOK_ALLOW_PRIVATE: 'false' }, resolver);

  it.each([
    'http://public.example/hook',
    'ftp://public.example/hook',
    'not a url',
    'https://user:secret@public.example/hook',
    'https://localhost/hook',
    'https://127.0.0.1/hook',
    'https://127.1/hook',
    'https://2130706433/hook',
    'https://0x7f000001/hook',
    'https://0177.0.0.1/hook',
    'https://0.0.0.0/hook',
    'https://10.0.0.1/hook',
    'https://172.16.5.4/hook',
    'https://192.168.1.1/hook',
    'https://100.64.0.1/hook',
    'https://100.100.100.200/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://224.0.0.1/hook',
    'https://255.255.255.255/hook',
    'https://[::1]/hook',
    'https://[::]/hook',
    'https://[fe80::1]/hook',
    'https://[fc00::1]/hook',
    'https://[fd00:ec2::254]/latest/meta-data/',
    'https://[ff02::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:a9fe:a9fe]/hook',
    'https://[64:ff9b::a9fe:a9fe]/hook',
    'https://[2002:7f00:1::]/hook',
    // IPv4-compatible IPv6 (::a.b.c.d, deprecated): once accepted as "unicast".
    'https://[::127.0.0.1]/hook',
    'https://[::7f00:1]/hook',
    'https://[::10.0.0.1]/hook',
    'https://[::169.254.169.254]/hook',
    'https://[2001:db8::1]/hook',
    'https://[3fff::1]/hook',
    'https://[100::1]/hook',
    'https://192.0.2.1/hook',
    'https://198.18.0.1/hook',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://internal.example/hook',
    'https://rebind.example/hook',
    'https://v6-private.example/hook',
    'https://mapped.example/hook',
    'https://unresolvable.example/hook',
  ])('refuses %s at registration', async (url) => {
    const { accountId } = await t.ctx.account();
    await expect(addWebhook(t.ctx.deps, { accountId, name: 'default', url })).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('accepts an https URL whose host has only public addresses', async () => {
    const { accountId } = await t.ctx.account();
    const endpoint = await addWebhook(t.ctx.deps, { accountId, name: 'default', url: 'https://public.example/hook' });
    expect(endpoint).toMatchObject({ name: 'default', url: 'https://public.example/hook', secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
    expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(32);
    await expect(addWebhook(t.ctx.deps, { accountId, name: 'default', url: 'https://public.example/other' })).rejects.toThrow(/already exists/);
    await expect(addWebhook(t.ctx.deps, { accountId, name: 'bad name!', url: 'https://public.example/x' })).rejects.toThrow(/name/);
  });

  it('checks again at delivery, sends nothing when the name now points inside, and fails the delivery at once', async () => {
    const account = await t.ctx.account({ credit: '100.00' });
    await addWebhook(t.ctx.deps, { accountId: account.accountId, name: 'default', url: 'https://public.example/hook' });
    await checkNumbers(t.ctx, account.key, ['0744800001']);
    const id = (await recharge(t.ctx, account.key, { recharges: [{ phone_number: '0744800001', amount: 5 }] })).json().orderSummary[0].rechargeId;
    await createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps)).runOnce();
    flipped = new Map([['public.example', ['169.254.169.254']]]);
    const sent: unknown[] = [];
    try {
      await createDeliveryWorker(t.ctx.deps, { tools: { send: async (request) => (sent.push(request), { statusCode: 200, latencyMs: 0 }), jitter: () => 0 } }).runOnce();
    } finally {
      flipped = new Map();
    }
    expect(sent).toEqual([]);
    const [event] = await eventsOfOrder(t.ctx.deps.store.db, id);
    expect(event?.status).toBe('failed');
    expect(await listAttempts(t.ctx.deps.store.db, event!.id)).toEqual([
      expect.objectContaining({ outcome: 'fail', error: expect.stringMatching(/^blocked: .*169\.254\.169\.254/) }),
    ]);
  });

  it('retries a delivery whose host did not resolve within the DNS deadline, sending nothing meanwhile', async () => {
    const account = await t.ctx.account({ credit: '100.00' });
    await addWebhook(t.ctx.deps, { accountId: account.accountId, name: 'default', url: 'https://public.example/slow' });
    await checkNumbers(t.ctx, account.key, ['0744800002']);
    const id = (await recharge(t.ctx, account.key, { recharges: [{ phone_number: '0744800002', amount: 5 }] })).json().orderSummary[0].rechargeId;
    await createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps)).runOnce();
    stalled = new Set(['public.example']);
    const sent: unknown[] = [];
    try {
      await createDeliveryWorker(t.ctx.deps, { tools: { send: async (request) => (sent.push(request), { statusCode: 200, latencyMs: 0 }), jitter: () => 0 } }).runOnce();
    } finally {
      stalled = new Set();
    }
    expect(sent).toEqual([]);
    const [event] = await eventsOfOrder(t.ctx.deps.store.db, id);
    expect(event?.status).toBe('pending');
    expect(await listAttempts(t.ctx.deps.store.db, event!.id)).toEqual([
      expect.objectContaining({ outcome: 'retry', error: expect.stringContaining('took longer than 5000 ms') }),
    ]);
  });
});

describeEachDialect('webhook URLs when private addresses are allowed', (dialect) => {
  const t = useTestContext(dialect, { TOPUP_WEBHOOK_ALLOW_PRIVATE: 'true' }, resolver);

  it('accepts loopback and plain http (staging receivers on a laptop)', async () => {
    const { accountId } = await t.ctx.account();
    await expect(addWebhook(t.ctx.deps, { accountId, name: 'local', url: 'http://localhost:3000/hook' })).resolves.toMatchObject({ name: 'local' });
    await expect(addWebhook(t.ctx.deps, { accountId, name: 'ftp', url: 'ftp://localhost/hook' })).rejects.toThrow(/http/);
  });
});

describeEachDialect('the default for TOPUP_WEBHOOK_ALLOW_PRIVATE', (dialect) => {
  const t = useTestContext(dialect, { TOPUP_ENV: 'production' }, resolver);

  it('is false in production', async () => {
    const { accountId } = await t.ctx.account();
    await expect(addWebhook(t.ctx.deps, { accountId, name: 'default', url: 'https://localhost/hook' })).rejects.toThrow(/private|loopback/);
  });
});

it.each([
  ['8.8.8.8', true],
  ['93.184.216.34', true],
  ['2606:4700:4700::1111', true],
  ['127.0.0.1', false],
  ['10.0.0.1', false],
  ['169.254.169.254', false],
  ['::ffff:8.8.8.8', true],
  ['::ffff:10.0.0.1', false],
  ['::7f00:1', false],
  ['::a9fe:a9fe', false],
  ['::8.8.8.8', false],
  ['2001:db8::1', false],
  ['2001::1', false],
  ['2002:808:808::1', false],
  ['5f00::1', false],
  ['240.0.0.1', false],
  ['192.0.2.7', false],
  ['not an ip', false],
])('isPublicAddress(%s) is %s', (address, expected) => {
  expect(isPublicAddress(address)).toBe(expected);
});

describeEachDialect('the HTTP sender', () => {
  const receiver = new Receiver();
  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => receiver.stop());

  it('connects to the checked address, whatever DNS would say now', async () => {
    const port = new URL(receiver.url).port;
    const result = await sendWebhook({
      url: new URL(`http://hooks.invalid:${port}/pinned`),
      address: { address: '127.0.0.1', family: 4 },
      headers: { 'content-type': 'application/json' },
      body: '{}',
      timeoutMs: 2_000,
    });
    expect(result.statusCode).toBe(200);
    expect(receiver.on('/pinned')[0]?.headers.host).toBe(`hooks.invalid:${port}`);
  });

  it('reports a refused connection as an error, not a status', async () => {
    const result = await sendWebhook({ url: new URL('http://127.0.0.1:9/x'), address: { address: '127.0.0.1', family: 4 }, headers: {}, body: '{}', timeoutMs: 2_000 });
    expect(result.statusCode).toBeUndefined();
    expect(result.error).toMatch(/ECONNREFUSED/);
  });
});
