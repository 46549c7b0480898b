import { describe, expect, inject, it } from 'vitest';
import { addDeposit } from '../../src/app/deposits.js';
import { openStore } from '../../src/store/database.js';
import { migrationsFor } from '../../src/store/migrations/index.js';
import { listenForWork, notifyWorkers, type WorkTopic } from '../../src/store/notify.js';
import { checkNumbers, closeTestContext, createTestDatabase, openTestContext, recharge, testDeps, FAST_SIMULATOR } from '../support/harness.js';
import { databaseUrl } from '../support/postgres-server.js';
import pg from 'pg';
import { randomBytes } from 'node:crypto';

const hasPostgres = !!inject('postgres');

describe.skipIf(!hasPostgres)('several processes on one PostgreSQL', () => {
  it('migrates once when many processes start at the same moment', async () => {
    const postgres = inject('postgres')!;
    const name = `${postgres.runTag}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const stores = Array.from({ length: 6 }, () => openStore({ kind: 'postgres', url: databaseUrl(postgres.adminUrl, name) }));
    const applied = await Promise.all(stores.map((s) => s.migrate()));
    // Exactly one process applied each migration; the others found nothing to do.
    expect(applied.flat().sort()).toEqual(Object.keys(migrationsFor('postgres')).sort());
    expect(applied.flat()).toContain('0006-queue-and-filter-indexes');
    await Promise.all(stores.map((s) => s.close()));
  });

  it('wakes listeners in other processes on commit, not before', async () => {
    const database = await createTestDatabase('postgres');
    const url = (database.target as { url: string }).url;
    const store = openStore(database.target);
    const heard: WorkTopic[] = [];
    const listener = await listenForWork(url, (topic) => heard.push(topic), () => {});
    heard.length = 0;
    await store.db.transaction().execute(async (tx) => {
      await notifyWorkers(tx, 'orders');
      await new Promise((r) => setTimeout(r, 100));
      expect(heard).toEqual([]);
    });
    for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(heard).toEqual(['orders']);
    await expect(
      store.db.transaction().execute(async (tx) => {
        await notifyWorkers(tx, 'events');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await new Promise((r) => setTimeout(r, 100));
    expect(heard).toEqual(['orders']);
    await listener.close();
    await store.close();
    await database.drop();
  });

  it('keeps LISTENing through an outage of any length: reconnects with back-off, never gives up', async () => {
    const { TcpProxy } = await import('../support/tcp-proxy.js');
    const database = await createTestDatabase('postgres');
    const target = new URL((database.target as { url: string }).url);
    const proxy = await new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) }).start();
    const viaProxy = new URL(target);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const store = openStore(database.target);
    const heard: WorkTopic[] = [];
    const states: string[] = [];
    const failures: unknown[] = [];
    const listener = await listenForWork(viaProxy.toString(), (topic) => heard.push(topic), (error) => failures.push(error), (state) => states.push(state));
    proxy.cutOff();
    // Down for long enough that several reconnects fail (the old code tried once, then gave up).
    for (let i = 0; i < 60 && failures.length < 3; i++) await new Promise((r) => setTimeout(r, 100));
    expect(failures.length).toBeGreaterThanOrEqual(3);
    proxy.restore();
    for (let i = 0; i < 100 && states.at(-1) !== 'listening'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(states[0]).toBe('listening');
    expect(states.at(-1)).toBe('listening');
    expect(states).toContain('reconnecting');
    heard.length = 0;
    await notifyWorkers(store.db, 'orders');
    for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(heard).toEqual(['orders']);
    await listener.close();
    await proxy.stop();
    await store.close();
    await database.drop();
  }, 30_000);

  it('rate-limits a key across API processes and across routes (PostgreSQL store)', async () => {
    const a = await openTestContext('postgres', { TOPUP_RATE_LIMIT_PER_MINUTE: '4' });
    // A second API process on a's database.
    const shared = await testDeps(a.database.target, { TOPUP_RATE_LIMIT_PER_MINUTE: '4' }, { clock: a.clock });
    const { buildApp } = await import('../../src/http/app.js');
    const appB = await buildApp(shared);
    const { key } = await a.account();
    const statuses: number[] = [];
    for (const [app, url] of [
      [a.app, '/v1/account/balance'],
      [appB, '/v1/account'],
      [a.app, '/v1/account/deposits'],
      [appB, '/v1/account/balance'],
      [a.app, '/v1/account/balance'],
    ] as const) {
      const response = await app.inject({ method: 'GET', url, headers: { 'x-authorization': key } });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    await appB.close();
    await shared.store.close();
    await closeTestContext(a);
  });

  it('rate-limits a key across API processes through Redis when REDIS_URL is set', async () => {
    const env = { TOPUP_RATE_LIMIT_PER_MINUTE: '3', REDIS_URL: 'redis://127.0.0.1:6379' };
    const a = await openTestContext('postgres', env);
    const { buildApp } = await import('../../src/http/app.js');
    const appB = await buildApp(a.deps);
    const { key } = await a.account();
    const statuses: number[] = [];
    for (const app of [a.app, appB, a.app, appB]) {
      statuses.push((await app.inject({ method: 'GET', url: '/v1/account/balance', headers: { 'x-authorization': key } })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    await appB.close();
    await closeTestContext(a);
  });

  it('answers 503 while the database is cut off, writes nothing half, and recovers by itself', async () => {
    const { TcpProxy } = await import('../support/tcp-proxy.js');
    const direct = await openTestContext('postgres', FAST_SIMULATOR);
    const target = new URL((direct.database.target as { url: string }).url);
    const proxy = await new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) }).start();
    const viaProxy = new URL(target);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const { buildApp } = await import('../../src/http/app.js');
    const deps = await testDeps({ kind: 'postgres', url: viaProxy.toString() }, FAST_SIMULATOR, { clock: direct.clock });
    const app = await buildApp(deps);
    const account = await direct.account({ credit: '100.00' });
    await addDeposit(direct.deps, { accountId: account.accountId, amount: '1.00' });
    await checkNumbers(direct, account.key, ['0744900001']);
    const order = { method: 'POST' as const, url: '/v1/recharge', headers: { 'x-authorization': account.key }, payload: { recharges: [{ phone_number: '0744900001', amount: 1 }] } };
    expect((await app.inject(order)).statusCode).toBe(201);

    proxy.cutOff();
    const during = await Promise.all(Array.from({ length: 10 }, () => app.inject(order)));
    for (const response of during) {
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'unavailable', success: false });
      expect(response.headers['retry-after']).toBe('5');
    }
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    const orders = await direct.deps.store.db.selectFrom('orders').select('id').where('account_id', '=', account.accountId).execute();
    expect(orders).toHaveLength(1);
    expect((await direct.call(account.key, { method: 'GET', url: '/v1/account/balance' })).json().balance).toBe(94.97);

    proxy.restore();
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await app.inject(order)).statusCode).toBe(201);
    await app.close();
    await deps.store.close();
    await proxy.stop();
    await closeTestContext(direct);
  });
});
