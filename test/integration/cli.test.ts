import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, databaseEnv, topup, type CliResult } from '../support/cli.js';
import { freePort } from '../support/processes.js';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../support/harness.js';

type Result = CliResult;

const json = (result: Result) => {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const lines = result.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
};

const refused = (result: Result) => {
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  return result.stderr.trim();
};

describeEachDialect('the topup command line', (dialect) => {
  let database: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    if (!existsSync(BIN)) throw new Error('build first: npm run build (npm test does)');
    database = await createTestDatabase(dialect);
    env = databaseEnv(database.target);
  });
  afterAll(async () => database?.drop());

  it('migrate is idempotent', async () => {
    const first = json(await topup(env, 'migrate', '--json'));
    expect(Array.isArray(first.migrated)).toBe(true);
    expect(json(await topup(env, 'migrate', '--json'))).toEqual({ migrated: [] });
  });

  it('accounts, keys and deposits', async () => {
    const account = json(await topup(env, 'accounts', 'create', '--name', 'Acme SRL', '--currency', 'EUR', '--json'));
    expect(account).toEqual({ id: expect.stringMatching(/^acc_/), name: 'Acme SRL', currency: 'EUR' });
    expect(json(await topup(env, 'accounts', 'create', '--name', 'Default', '--json')).currency).toBe('RON');

    const list = json(await topup(env, 'accounts', 'list', '--json'));
    expect(list.data).toEqual(expect.arrayContaining([expect.objectContaining({ id: account.id, name: 'Acme SRL', balance: 0 })]));

    const key = json(await topup(env, 'keys', 'create', '--account', account.id, '--json'));
    expect(key).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^tk_test_[a-z2-7]{52}$/), scope: 'full' });

    const deposit = json(await topup(env, 'deposits', 'add', '--account', account.id, '--amount', '100.00', '--reference', 'wire 42', '--json'));
    expect(deposit).toEqual({ id: expect.stringMatching(/^dep_/), amount: 100, currency: 'EUR', balance: 100 });
    expect(json(await topup(env, 'deposits', 'add', '--account', account.id, '--amount', '0.5', '--json')).balance).toBe(100.5);

    const keys = json(await topup(env, 'keys', 'list', '--account', account.id, '--json'));
    expect(keys.data).toEqual([expect.objectContaining({ id: key.id, revoked: false, prefix: key.key.slice(0, 12) })]);
    expect(json(await topup(env, 'keys', 'revoke', key.id, '--json'))).toEqual({ id: key.id, revoked: true });
  });

  it('prints its version, refuses an unknown account in every command, and lists a customer\'s orders', async () => {
    const version = await topup(env, '--version');
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    for (const args of [
      ['keys', 'list', '--account', 'acc_nope'],
      ['audit', '--account', 'acc_nope'],
      ['orders', 'list', '--account', 'acc_nope'],
      ['webhooks', 'list', '--account', 'acc_nope'],
    ]) {
      expect(refused(await topup(env, ...args, '--json'))).toBe('topup: No account acc_nope.');
    }
    const account = json(await topup(env, 'accounts', 'create', '--name', 'Orders', '--json'));
    expect(json(await topup(env, 'orders', 'list', '--account', account.id, '--status', 'FAILED', '--json'))).toEqual({
      data: [],
      pagination: { page: 1, limit: 20, total: 0, total_pages: 0 },
    });
    expect(refused(await topup(env, 'orders', 'list', '--account', account.id, '--status', 'LOST'))).toContain('PENDING, PROCESSING, SUCCESS, FAILED');
  });

  it('portability import', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'topup-cli-'));
    const good = join(dir, 'ported.csv');
    writeFileSync(good, 'number,operator\n0744111222,vodafone\n0721111222,orange\n');
    expect(json(await topup(env, 'portability', 'import', good, '--json'))).toEqual({ imported: 2 });
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, '0744111222,vodafone\nnot-a-number,orange\n');
    expect(refused(await topup(env, 'portability', 'import', bad, '--json'))).toContain('line 2');
    // A missing file is said plainly (it once was "unexpected error: ENOENT").
    expect(refused(await topup(env, 'portability', 'import', join(dir, 'missing.csv'), '--json'))).toBe(`topup: cannot read ${join(dir, 'missing.csv')}: no such file`);
  });

  it('demo creates a staging account with credit and a working key', async () => {
    const demo = json(await topup(env, 'demo', '--json'));
    expect(demo).toMatchObject({
      accountId: expect.stringMatching(/^acc_/),
      key: expect.stringMatching(/^tk_test_/),
      balance: 1000,
      currency: 'RON',
      curl: expect.stringContaining('/v1/account/balance'),
    });
  });

  it.each([
    [['accounts', 'create', '--json'], "required option '--name"],
    [['accounts', 'create', '--name', 'x', '--currency', 'USD', '--json'], 'RON or EUR'],
    [['deposits', 'add', '--account', 'acc_nope', '--amount', '5', '--json'], 'No account acc_nope'],
    [['deposits', 'add', '--account', 'acc_nope', '--amount', '5.555', '--json'], 'at most 2 decimals'],
    [['keys', 'create', '--account', 'acc_nope', '--json'], 'No account'],
    [['keys', 'revoke', 'key_nope', '--json'], 'No API key'],
    [['frobnicate'], 'unknown command'],
    [['serve', '--port', 'http'], 'port'],
    [['rates', 'set', '--json'], "required option '--eur-ron"],
  ])('refuses %j with one line on stderr', async (args, message) => {
    expect(refused(await topup(env, ...args))).toContain(message);
  });

  it('rates set and rates fetch (from a local copy of the feed)', async () => {
    expect(json(await topup(env, 'rates', 'set', '--eur-ron', '4.9773', '--json'))).toEqual({
      eurRon: '4.9773',
      source: 'manual',
      storedAt: expect.stringMatching(/Z$/),
    });
    expect(refused(await topup(env, 'rates', 'set', '--eur-ron', '4.97731', '--json'))).toContain('4 decimals');
    const feed = createServer((_req, res) => res.end(readFileSync('test/fixtures/nbrfxrates.xml')));
    await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/nbrfxrates.xml`;
    try {
      expect(json(await topup({ ...env, TOPUP_BNR_FEED_URL: url }, 'rates', 'fetch', '--json'))).toEqual({
        eurRon: '4.9773',
        source: 'bnr',
        rateDate: '2026-11-20',
        storedAt: expect.stringMatching(/Z$/),
      });
    } finally {
      feed.close();
    }
    expect(refused(await topup({ ...env, TOPUP_BNR_FEED_URL: 'http://127.0.0.1:9/none' }, 'rates', 'fetch', '--json'))).toContain('rates feed');
  });

  it('serve answers a real client, fulfils orders and stops on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--demo'], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', TOPUP_SIMULATOR_DELAY_MS: '0', ...env },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100 && !/Serving|Try:/.test(out); i++) await new Promise((r) => setTimeout(r, 100));
    const key = /tk_test_[a-z2-7]+/.exec(out)?.[0] ?? json(await topup(env, 'demo', '--json')).key;
    const headers = { 'x-authorization': key, 'content-type': 'application/json' };
    const balance = await fetch(`${base}/v1/account/balance`, { headers });
    expect(balance.status).toBe(200);
    await fetch(`${base}/v1/check-number`, { method: 'POST', headers, body: JSON.stringify({ phone_number: '0744600001' }) });
    const placed = await fetch(`${base}/v1/recharge`, { method: 'POST', headers, body: JSON.stringify({ recharges: [{ phone_number: '0744600001', amount: 5 }] }) });
    expect(placed.status).toBe(201);
    const id = ((await placed.json()) as { orderSummary: Array<{ rechargeId: string }> }).orderSummary[0]!.rechargeId;
    let status = '';
    for (let i = 0; i < 100 && status !== 'SUCCESS'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = ((await (await fetch(`${base}/v1/account/recharges/${id}`, { headers })).json()) as { recharge_status: string }).recharge_status;
    }
    expect(status).toBe('SUCCESS');
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('serve on a busy port exits 1 with one line naming the address, and leaves nothing running', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const { port } = busy.address() as AddressInfo;
    try {
      const result = await topup(env, 'serve', '--port', String(port));
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(`topup: cannot listen on 127.0.0.1:${port}: the address is in use by another process (is a server already running?)`);
    } finally {
      busy.close();
    }
  });

  it('webhooks add, list, enable, deliveries and redeliver', async () => {
    const account = json(await topup(env, 'accounts', 'create', '--name', 'Hooks', '--json'));
    const added = json(await topup(env, 'webhooks', 'add', '--account', account.id, '--name', 'default', '--url', 'http://127.0.0.1:9/hook', '--json'));
    expect(added).toEqual({ name: 'default', url: 'http://127.0.0.1:9/hook', secret: expect.stringMatching(/^whsec_/) });
    expect(json(await topup(env, 'webhooks', 'list', '--account', account.id, '--json'))).toEqual({
      data: [expect.objectContaining({ name: 'default', url: 'http://127.0.0.1:9/hook', enabled: true })],
    });
    expect(json(await topup(env, 'webhooks', 'enable', '--account', account.id, '--name', 'default', '--json'))).toEqual({ name: 'default', enabled: true });
    expect(json(await topup(env, 'webhooks', 'deliveries', '--account', account.id, '--json'))).toEqual({ data: [] });
    expect(refused(await topup(env, 'webhooks', 'redeliver', 'msg_nope', '--json'))).toContain('No webhook delivery');
    expect(refused(await topup(env, 'webhooks', 'deliveries', '--account', account.id, '--status', 'lost'))).toContain('pending, delivered or failed');
    expect(refused(await topup({ ...env, TOPUP_WEBHOOK_ALLOW_PRIVATE: 'false' }, 'webhooks', 'add', '--account', account.id, '--name', 'x', '--url', 'https://127.0.0.1/h'))).toContain('loopback');
  });

  it('refuses bad settings with a message naming the variable', async () => {
    expect(refused(await topup({ ...env, TOPUP_ENV: 'prod' }, 'accounts', 'list', '--json'))).toContain('TOPUP_ENV');
  });
});
