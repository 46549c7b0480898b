import { expect, it } from 'vitest';
import { createAccount } from '../../src/app/accounts.js';
import { createApiKey } from '../../src/app/api-keys.js';
import { audit } from '../../src/app/audit.js';
import { addDeposit } from '../../src/app/deposits.js';
import { checkNumber } from '../../src/app/number-check.js';
import { addWebhook } from '../../src/app/webhooks.js';
import { databaseEnv } from '../support/cli.js';
import { createTestDatabase, describeEachDialect, processDeps } from '../support/harness.js';
import { freePort, startProcess, type ServiceProcess } from '../support/processes.js';
import { Receiver } from '../support/receiver.js';

const CLIENTS = 8;
const REQUESTS_PER_CLIENT = 12;
const KILLS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeEachDialect('crash test: SIGKILL at random moments', (dialect) => {
  it(`every acknowledged order exists once, nothing else does, after ${KILLS} kills`, async () => {
    const database = await createTestDatabase(dialect);
    const receiver = await new Receiver().start();
    const env = {
      ...databaseEnv(database.target),
      TOPUP_SIMULATOR_DELAY_MS: '30',
      TOPUP_SIMULATOR_FAST_DELAY_MS: '10',
      TOPUP_EUR_RON_RATE: '4.9773',
      TOPUP_WORKER_CLAIM_TTL_MS: '1500',
      TOPUP_WEBHOOK_TIMEOUT_MS: '500',
      TOPUP_RATE_LIMIT_PER_MINUTE: '0',
      TOPUP_IDEMPOTENCY_LOCK_MS: '2000',
    };
    const deps = await processDeps(database.target, env);
    const store = deps.store;
    const account = await createAccount(deps, { name: 'crash' });
    await addDeposit(deps, { accountId: account.id, amount: '100000.00' });
    await addWebhook(deps, { accountId: account.id, name: 'default', url: `${receiver.url}/events` });
    const numbers = ['0744600001', '0744600002', '0721600003', '0744600991'];
    for (const n of numbers) await checkNumber(deps, { accountId: account.id, keyId: 'k', currency: 'RON', environment: 'staging', scope: 'full' }, n);
    const { key } = await createApiKey(deps, account.id);

    const port = await freePort();
    let server: ServiceProcess = await startProcess(['serve'], env, port);
    const url = `http://127.0.0.1:${port}`;
    const acknowledged = new Set<string>();
    let retries = 0;

    /** A client that retries with the same Idempotency-Key until the service acknowledges. */
    const client = async (c: number) => {
      for (let r = 0; r < REQUESTS_PER_CLIENT; r++) {
        const body = JSON.stringify({ recharges: [{ phone_number: numbers[(c + r) % 4], amount: 5 }, { phone_number: numbers[(c + r + 1) % 4], amount: 6 }], fast_recharge: r % 3 === 0 });
        for (;;) {
          const response = await fetch(`${url}/v1/recharge`, {
            method: 'POST',
            headers: { 'x-authorization': key, 'content-type': 'application/json', 'idempotency-key': `crash-${c}-${r}` },
            body,
            signal: AbortSignal.timeout(5_000),
          }).catch(() => undefined);
          if (response?.status === 201) {
            for (const o of ((await response.json()) as { orderSummary: Array<{ rechargeId: string }> }).orderSummary) acknowledged.add(o.rechargeId);
            break;
          }
          if (response && response.status < 500 && response.status !== 409) throw new Error(`refused: ${response.status} ${await response.text()}`);
          retries++;
          await sleep(50);
        }
      }
    };
    const killer = async () => {
      for (let k = 0; k < KILLS; k++) {
        await sleep(300 + Math.random() * 700);
        await server.kill('SIGKILL');
        server = await startProcess(['serve'], env, port);
      }
    };
    try {
      await Promise.all([killer(), ...Array.from({ length: CLIENTS }, (_, c) => client(c))]);
      expect(acknowledged.size).toBe(CLIENTS * REQUESTS_PER_CLIENT * 2);

      const open = async () => {
        const orders = await store.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('status', 'in', ['PENDING', 'PROCESSING']).executeTakeFirstOrThrow();
        const events = await store.db.selectFrom('webhook_events').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow();
        return Number(orders.n) + Number(events.n);
      };
      for (let i = 0; i < 300 && (await open()) > 0; i++) await sleep(100);
      expect(await open()).toBe(0);

      const orders = await store.db.selectFrom('orders').select(['id', 'status', 'msisdn']).execute();
      expect(new Set(orders.map((o) => o.id))).toEqual(acknowledged);
      expect(orders).toHaveLength(acknowledged.size);
      for (const o of orders) expect(o.status).toBe(o.msisdn.endsWith('991') ? 'FAILED' : 'SUCCESS');
      const topups = await store.db.selectFrom('simulator_topups').select(['recharge_id', 'requests']).execute();
      expect(topups.filter((t) => Number(t.requests) !== 1)).toEqual([]);
      expect(topups).toHaveLength(orders.length);
      expect(await audit(deps)).toMatchObject({ ok: true, problems: [] });
      const events = await store.db.selectFrom('webhook_events').select(['id', 'status']).execute();
      expect(events).toHaveLength(orders.length);
      const received = new Set(receiver.received.map((r) => r.headers['webhook-id']));
      for (const e of events) expect(received.has(e.id)).toBe(true);
      process.stderr.write(`crash test [${dialect}]: ${KILLS} kills survived, ${orders.length} orders checked, ${retries} client retries\n`);
    } finally {
      await server.kill('SIGTERM');
      await receiver.stop();
      await store.close();
      await database.drop();
    }
  }, 120_000);
});
