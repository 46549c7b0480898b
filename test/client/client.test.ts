import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TopupApiError, TopupClient, verifyWebhook } from '@topup/client';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/app/accounts.js';
import { createApiKey } from '../../src/app/api-keys.js';
import { addDeposit } from '../../src/app/deposits.js';
import { databaseEnv } from '../support/cli.js';
import { FAST_SIMULATOR, processDeps } from '../support/harness.js';
import { HttpProxy } from '../support/http-proxy.js';
import { freePort, startProcess, type ServiceProcess } from '../support/processes.js';
import { Receiver } from '../support/receiver.js';

// @topup/client as an integrator uses it (the built package, imported by its name), against a real
// instance of the service started here: the built `topup serve` with its workers, on SQLite.

describe('@topup/client against a running service', () => {
  const dir = mkdtempSync(join(tmpdir(), 'topup-client-'));
  const env = { ...FAST_SIMULATOR, ...databaseEnv({ kind: 'sqlite', path: join(dir, 'topup.db') }), TOPUP_ENV: 'staging', TOPUP_VAT_RATE: '0.19' };
  let server: ServiceProcess;
  let port = 0;
  let key = '';
  let client: TopupClient;
  let receiver: Receiver;

  beforeAll(async () => {
    const service = await processDeps({ kind: 'sqlite', path: join(dir, 'topup.db') }, env);
    const account = await createAccount(service, { name: 'Acme', currency: 'RON' });
    // 105 deposits: more than one page of the listing, so following pages is tested.
    for (let i = 0; i < 104; i++) await addDeposit(service, { accountId: account.id, amount: '1.00', reference: `small ${i}` });
    await addDeposit(service, { accountId: account.id, amount: '5000.00', reference: 'opening' });
    key = (await createApiKey(service, account.id)).key;
    await service.close();
    receiver = await new Receiver().start();
    port = await freePort();
    server = await startProcess(['serve'], env, port);
    client = new TopupClient({ apiKey: key, baseUrl: server.url! });
  });

  afterAll(async () => {
    await server?.kill('SIGTERM');
    await receiver?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks numbers, quotes, places under an idempotency key (a repeat is a replay), and reads the account', async () => {
    const check = await client.checkNumber('0744 123 456');
    expect(check).toMatchObject({ isValid: true, operator: 'orange', sanitizedNumber: '40744123456' });
    expect(await client.checkNumber('0212 345 678')).toMatchObject({ isValid: false });
    const request = { recharges: [{ phone_number: '0744123456', amount: 5 }], fast_recharge: true };
    const quote = await client.quote(request);
    expect(quote).toMatchObject({ success: true, currency: 'RON', sufficientFunds: true, fastRecharge: true });
    const placed = await client.recharge(request, { idempotencyKey: 'client-test-1' });
    expect(placed).toMatchObject({ success: true, replayed: false, idempotencyKey: 'client-test-1', balanceDeduction: quote.balanceDeduction });
    const again = await client.recharge(request, { idempotencyKey: 'client-test-1' });
    expect(again.replayed).toBe(true);
    expect(again.orderSummary[0]!.rechargeId).toBe(placed.orderSummary[0]!.rechargeId);
    // Without a key, one is made: two calls are two orders.
    const made = await client.recharge(request);
    expect(made.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

    const balance = await client.account.balance();
    expect(balance.currency).toBe('RON');
    expect(balance.balance).toBeCloseTo(5104 - 2 * Number(quote.balanceDeduction), 2);
    expect((await client.account.get()).orderSummary.recharges.count).toBe(2);
    expect((await client.account.activity(7)).data.reduce((n, d) => n + d.orders, 0)).toBe(2);
    expect(await client.ping()).toMatchObject({ success: true, environment: 'staging' });
    const order = await client.orders.get(placed.orderSummary[0]!.rechargeId);
    expect(order).toMatchObject({ recharge_uuid: placed.orderSummary[0]!.rechargeId, number: '40744123456', pricing: { deduction: quote.balanceDeduction } });
  });

  it('follows the pages of orders and deposits, each record once, filters kept', async () => {
    for (let i = 0; i < 3; i++) {
      const recharges = Array.from({ length: 15 }, (_, j) => ({ phone_number: '0744123456', amount: Math.round((5 + i + j / 100) * 100) / 100 }));
      await client.recharge({ recharges });
    }
    const seen: string[] = [];
    for await (const order of client.orders.list({ limit: 10 })) seen.push(order.recharge_uuid);
    expect(seen).toHaveLength(47);
    expect(new Set(seen).size).toBe(47);
    const orange: string[] = [];
    for await (const order of client.orders.list({ phone_number: '0744123456', limit: 7 })) orange.push(order.number);
    expect(orange).toHaveLength(47);
    let deposits = 0;
    for await (const deposit of client.deposits.list()) {
      expect(deposit.currency).toBe('RON');
      deposits++;
    }
    expect(deposits).toBe(105);
    const csv = await client.orders.exportCsv({ phone_number: '0744123456' });
    expect(csv.trim().split('\r\n')).toHaveLength(48);
  });

  it('manages webhooks and keys, and verifies a delivery the service sent', async () => {
    const created = await client.webhooks.create({ name: 'main', url: `${receiver.url}/hook` });
    expect(created.secret).toMatch(/^whsec_/);
    expect((await client.webhooks.list()).map((w) => w.name)).toEqual(['main']);
    const { id } = await client.webhooks.test('main');
    await expect.poll(() => receiver.on('/hook').length, { timeout: 15_000 }).toBe(1);
    const [delivery] = receiver.on('/hook');
    const event = verifyWebhook(delivery!.body, delivery!.headers as Record<string, string>, created.secret);
    expect(event).toMatchObject({ type: 'webhook.test', data: { webhook: 'main' } });
    // From a fetch Headers object too (a Fetch-API receiver).
    expect(verifyWebhook(new TextEncoder().encode(delivery!.body), new Headers(delivery!.headers as Record<string, string>), created.secret).type).toBe('webhook.test');
    expect(() => verifyWebhook(delivery!.body.replace('webhook.test', 'webhook.tset'), delivery!.headers as Record<string, string>, created.secret)).toThrow();
    // Signed rightly but an hour ago: refused for its age (a replayed delivery), not for its signature.
    const anHourAgo = new Date(Date.now() - 3_600_000);
    const oldSignature = new Webhook(created.secret).sign('msg_old', anHourAgo, delivery!.body);
    const old = { 'webhook-id': 'msg_old', 'webhook-timestamp': String(Math.floor(anHourAgo.getTime() / 1000)), 'webhook-signature': oldSignature };
    expect(() => verifyWebhook(delivery!.body, old, created.secret)).toThrow(/too old/i);
    expect(() => verifyWebhook(delivery!.body, delivery!.headers as Record<string, string>, 'whsec_' + Buffer.from('another secret!!').toString('base64'))).toThrow();

    await expect.poll(async () => {
      for await (const d of client.webhooks.deliveries({ status: 'delivered' })) if (d.id === id) return true;
      return false;
    }).toBe(true);
    expect(await client.webhooks.redeliver(id)).toEqual({ id, status: 'pending' });
    const rotated = await client.webhooks.rotateSecret('main');
    expect(rotated.secret).not.toBe(created.secret);
    expect(await client.webhooks.enable('main')).toEqual({ name: 'main', enabled: true });
    await client.webhooks.delete('main');
    expect(await client.webhooks.list()).toEqual([]);

    const reader = await client.keys.create({ scope: 'read', name: 'reporting' });
    expect(reader).toMatchObject({ scope: 'read', key: expect.stringMatching(/^tk_test_/) });
    expect((await client.keys.list()).map((k) => k.name)).toContain('reporting');
    const readOnly = new TopupClient({ apiKey: reader.key, baseUrl: server.url! });
    const refused = await readOnly.keys.create().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TopupApiError);
    expect(refused).toMatchObject({ status: 403, code: 'insufficient_scope', requestId: expect.stringMatching(/^req_/) });
    await client.keys.revoke(reader.id);
    await expect.poll(async () => (await readOnly.account.balance().catch((error: TopupApiError) => error)) instanceof TopupApiError, { timeout: 10_000 }).toBe(true);
  });

  it('reports problems as TopupApiError with the code, the request id and each entry\'s problem', async () => {
    const error = (await client.recharge({ recharges: [{ phone_number: '0744123456', amount: 5 }, { phone_number: '0722999888', amount: 5 }] }).catch((e: unknown) => e)) as TopupApiError;
    expect(error).toBeInstanceOf(TopupApiError);
    expect(error).toMatchObject({ status: 422, code: 'invalid_recharge', requestId: expect.stringMatching(/^req_/) });
    expect(error.errors).toEqual([expect.objectContaining({ arrayPosition: 1, code: 'number_not_checked' })]);
    const unauthorised = (await new TopupClient({ apiKey: 'tk_test_nope', baseUrl: server.url! }).account.get().catch((e: unknown) => e)) as TopupApiError;
    expect(unauthorised).toMatchObject({ status: 401, code: 'invalid_api_key' });
    const nowhere = (await new TopupClient({ apiKey: key, baseUrl: `http://127.0.0.1:${await freePort()}`, maxRetries: 1 }).account.get().catch((e: unknown) => e)) as TopupApiError;
    expect(nowhere).toMatchObject({ status: 0, code: 'network_error' });
  });

  it('retries a recharge whose answer was lost with the same key: ordered once, answered as a replay', async () => {
    const proxy = await new HttpProxy(server.url!).start();
    try {
      const viaProxy = new TopupClient({ apiKey: key, baseUrl: `http://127.0.0.1:${proxy.port}`, maxRetries: 3 });
      const before = (await client.account.get()).orderSummary.recharges.count;
      proxy.loseNextRechargeAnswers = 1;
      const placed = await viaProxy.recharge({ recharges: [{ phone_number: '0744123456', amount: 9.99 }] });
      expect(placed.replayed).toBe(true); // the first try was performed; its answer never came
      expect((await client.account.get()).orderSummary.recharges.count).toBe(before + 1);
    } finally {
      await proxy.down();
    }
  });

  it('retries across a restart of the service with the same key: the order placed before the restart is answered, not placed again', async () => {
    const before = (await client.account.get()).orderSummary.recharges.count;
    const keysSent: string[] = [];
    let restarted = false;
    // The first try reaches the service and is performed; then the service restarts and that answer is
    // lost with the connection. The retries meet the restarted service.
    const losing: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      if (headers.has('idempotency-key')) keysSent.push(headers.get('idempotency-key')!);
      const response = await fetch(input, init);
      if (!restarted && String(input).endsWith('/v1/recharge')) {
        restarted = true;
        await server.kill('SIGTERM');
        server = await startProcess(['serve'], env, port);
        throw new TypeError('fetch failed: the connection was reset');
      }
      return response;
    };
    const patient = new TopupClient({ apiKey: key, baseUrl: `http://127.0.0.1:${port}`, fetch: losing });
    const placed = await patient.recharge({ recharges: [{ phone_number: '0744123456', amount: 4.5 }] });
    expect(restarted).toBe(true);
    expect(placed.replayed).toBe(true);
    expect(new Set(keysSent).size).toBe(1);
    expect(keysSent.length).toBeGreaterThan(1);
    expect((await client.account.get()).orderSummary.recharges.count).toBe(before + 1);
  }, 60_000);
});
