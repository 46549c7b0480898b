import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { createAccount } from '../../src/app/accounts.js';
import { createApiKey } from '../../src/app/api-keys.js';
import { addDeposit } from '../../src/app/deposits.js';
import { audit } from '../../src/app/audit.js';
import { addWebhook } from '../../src/app/webhooks.js';
import { databaseEnv } from '../support/cli.js';
import { createTestDatabase, processDeps } from '../support/harness.js';
import { freePort, startProcess, type ServiceProcess } from '../support/processes.js';
import { Receiver } from '../support/receiver.js';

const ORDERS_PER_REQUEST = 5;
const REQUESTS = 220; // 1,100 orders
const CONCURRENCY = 16;

interface Placed {
  rechargeIds: string[];
}

describe.skipIf(!inject('postgres'))('scale-out: 2 API and 2 worker processes on one PostgreSQL', () => {
  it('loses nothing and does nothing twice, with a worker killed mid-run', async () => {
    const database = await createTestDatabase('postgres');
    const receiver = await new Receiver().start();
    const env = {
      ...databaseEnv(database.target),
      TOPUP_SIMULATOR_DELAY_MS: '5',
      TOPUP_SIMULATOR_FAST_DELAY_MS: '5',
      TOPUP_EUR_RON_RATE: '4.9773',
      TOPUP_WORKER_CLAIM_TTL_MS: '3000',
      TOPUP_WEBHOOK_TIMEOUT_MS: '1000',
      TOPUP_RATE_LIMIT_PER_MINUTE: '0',
      TOPUP_DB_POOL_SIZE: '6',
    };
    const deps = await processDeps(database.target, env);
    const store = deps.store;
    const processes: ServiceProcess[] = [];
    try {
      // Customers: four with plenty of credit, one with credit for exactly five 1 EUR top-ups.
      const customers: Array<{ accountId: string; key: string }> = [];
      for (let i = 0; i < 5; i++) {
        const account = await createAccount(deps, { name: `customer ${i}` });
        await addDeposit(deps, { accountId: account.id, amount: i === 4 ? '30.15' : '100000.00' });
        await addWebhook(deps, { accountId: account.id, name: 'default', url: `${receiver.url}/events/${i}` });
        customers.push({ accountId: account.id, key: (await createApiKey(deps, account.id)).key });
      }
      const apis = [await startProcess(['serve', '--no-worker'], env, await freePort()), await startProcess(['serve', '--no-worker'], env, await freePort())];
      processes.push(...apis);
      const workers = [await startProcess(['worker'], env), await startProcess(['worker'], env)];
      processes.push(...workers);

      const post = (api: ServiceProcess, key: string, path: string, body: unknown, idempotencyKey?: string) =>
        fetch(`${api.url}${path}`, {
          method: 'POST',
          headers: { 'x-authorization': key, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
          body: JSON.stringify(body),
        });

      const numbers = Array.from({ length: 40 }, (_, i) => `07445${String(10_000 + i).padStart(5, '0')}`).concat(['0744500991', '0721500991']);
      for (const customer of customers) {
        for (const phone_number of numbers) {
          expect((await post(apis[0]!, customer.key, '/v1/check-number', { phone_number })).status).toBe(200);
        }
      }

      // 20-way race on the last credit, across both APIs.
      const race = customers[4]!;
      const raced = await Promise.all(
        Array.from({ length: 20 }, (_, i) => post(apis[i % 2]!, race.key, '/v1/recharge', { recharges: [{ phone_number: numbers[i]!, amount: 1 }] })),
      );
      const raceWins = raced.filter((r) => r.status === 201);
      expect(raceWins).toHaveLength(5);
      expect(raced.filter((r) => r.status === 402)).toHaveLength(15);
      const acknowledged = new Set<string>();
      for (const r of raceWins) for (const o of ((await r.json()) as { orderSummary: Array<{ rechargeId: string }> }).orderSummary) acknowledged.add(o.rechargeId);

      // 1,100 orders through both APIs; a fifth of the requests are sent again to the other API.
      let sent = 0;
      let replays = 0;
      let killed = false;
      const next = async (): Promise<void> => {
        while (sent < REQUESTS) {
          const n = sent++;
          if (!killed && n >= REQUESTS * 0.4) {
            killed = true;
            await workers[0]!.kill('SIGKILL');
          }
          const customer = customers[n % 4]!;
          const body = {
            recharges: Array.from({ length: ORDERS_PER_REQUEST }, (_, e) => ({ phone_number: numbers[(n * ORDERS_PER_REQUEST + e) % numbers.length]!, amount: 5 + (e % 3) })),
            passthrough: { document_id: randomUUID(), request: n },
            fast_recharge: n % 7 === 0,
          };
          const idempotencyKey = `scale-${n}`;
          const first = await post(apis[n % 2]!, customer.key, '/v1/recharge', body, idempotencyKey);
          expect(first.status).toBe(201);
          const placed = (await first.json()) as { orderSummary: Array<{ rechargeId: string }> };
          for (const o of placed.orderSummary) acknowledged.add(o.rechargeId);
          if (n % 5 === 0) {
            const again = await post(apis[(n + 1) % 2]!, customer.key, '/v1/recharge', body, idempotencyKey);
            expect(again.status).toBe(201);
            expect(again.headers.get('idempotent-replayed')).toBe('true');
            expect(((await again.json()) as Placed & { orderSummary: Array<{ rechargeId: string }> }).orderSummary.map((o) => o.rechargeId)).toEqual(
              placed.orderSummary.map((o) => o.rechargeId),
            );
            replays++;
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, next));
      expect(killed).toBe(true);
      expect(replays).toBeGreaterThanOrEqual(REQUESTS / 5);
      expect(acknowledged.size).toBe(REQUESTS * ORDERS_PER_REQUEST + 5);

      // Wait for the surviving worker to finish everything, the dead one's claims included.
      const db = store.db;
      const open = async () => {
        const orders = await db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('status', 'in', ['PENDING', 'PROCESSING']).executeTakeFirstOrThrow();
        const events = await db.selectFrom('webhook_events').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow();
        return Number(orders.n) + Number(events.n);
      };
      for (let i = 0; i < 600 && (await open()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await open()).toBe(0);

      // Every acknowledged order exists once, and nothing else does.
      const orders = await db.selectFrom('orders').select(['id', 'status', 'account_id', 'deduction', 'msisdn']).execute();
      expect(orders).toHaveLength(acknowledged.size);
      expect(new Set(orders.map((o) => o.id))).toEqual(acknowledged);
      for (const o of orders) expect(o.status).toBe(o.msisdn.endsWith('991') ? 'FAILED' : 'SUCCESS');

      // Each was sent to the operator once.
      const topups = await db.selectFrom('simulator_topups').select(['recharge_id', 'requests']).execute();
      expect(topups).toHaveLength(orders.length);
      expect(topups.filter((t) => Number(t.requests) !== 1)).toEqual([]);

      // Each event was delivered, exactly one per order.
      const events = await db.selectFrom('webhook_events').select(['id', 'order_id', 'status']).execute();
      expect(events).toHaveLength(orders.length);
      expect(new Set(events.map((e) => e.order_id)).size).toBe(orders.length);
      expect(events.filter((e) => e.status !== 'delivered')).toEqual([]);
      const receivedIds = new Set(receiver.received.map((r) => r.headers['webhook-id']));
      for (const e of events) expect(receivedIds.has(e.id)).toBe(true);

      // Balances are deposits minus the deductions of orders that did not fail, and match the ledger.
      for (const customer of customers) {
        const account = await db.selectFrom('accounts').select(['balance', 'total_deposits']).where('id', '=', customer.accountId).executeTakeFirstOrThrow();
        const kept = orders.filter((o) => o.account_id === customer.accountId && o.status !== 'FAILED').reduce((sum, o) => sum + BigInt(o.deduction), 0n);
        expect(BigInt(account.balance)).toBe(BigInt(account.total_deposits) - kept);
        const ledger = await db.selectFrom('ledger_entries').select('amount').where('account_id', '=', customer.accountId).execute();
        expect(ledger.reduce((sum, e) => sum + BigInt(e.amount), 0n)).toBe(BigInt(account.balance));
      }
      const raceAccount = await db.selectFrom('accounts').select('balance').where('id', '=', race.accountId).executeTakeFirstOrThrow();
      expect(BigInt(raceAccount.balance)).toBe(0n);
      expect(await audit(deps)).toMatchObject({ ok: true, problems: [] });
    } finally {
      await Promise.all(processes.map((p) => p.kill('SIGTERM')));
      await receiver.stop();
      await store.close();
      await database.drop();
    }
  }, 240_000);
});
