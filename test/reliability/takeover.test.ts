import { describe, expect, inject, it } from 'vitest';
import { createAccount } from '../../src/app/accounts.js';
import { createApiKey } from '../../src/app/api-keys.js';
import { audit } from '../../src/app/audit.js';
import { addDeposit } from '../../src/app/deposits.js';
import { checkNumber } from '../../src/app/number-check.js';
import type { Service } from '../../src/main.js';
import { simulatedTopupCounts } from '../../src/store/simulator.repository.js';
import { databaseEnv } from '../support/cli.js';
import { createTestDatabase, describeEachDialect, processDeps, type TestDatabase } from '../support/harness.js';
import { freePort, startProcess } from '../support/processes.js';

// A worker that dies holding orders must not hold them for long: claims are short leases that a live
// worker renews while its operator calls run. These run with the default lease (15 s).

const NUMBERS = Array.from({ length: 10 }, (_, i) => `074470${String(i).padStart(4, '0')}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function setUp(database: TestDatabase, env: Record<string, string>) {
  const deps = await processDeps(database.target, env);
  const account = await createAccount(deps, { name: 'takeover' });
  await addDeposit(deps, { accountId: account.id, amount: '10000.00' });
  for (const n of NUMBERS) await checkNumber(deps, { accountId: account.id, keyId: 'k', currency: 'RON', environment: 'staging', scope: 'full' }, n);
  const { key } = await createApiKey(deps, account.id);
  return { deps, key };
}

async function place(url: string, key: string): Promise<void> {
  const response = await fetch(`${url}/v1/recharge`, {
    method: 'POST',
    headers: { 'x-authorization': key, 'content-type': 'application/json' },
    body: JSON.stringify({ recharges: NUMBERS.map((phone_number) => ({ phone_number, amount: 5 })) }),
  });
  expect(response.status).toBe(201);
}

const count = async (deps: Service, status: string) =>
  Number((await deps.store.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('status', '=', status).executeTakeFirstOrThrow()).n);

async function waitFor(what: string, deadlineMs: number, done: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await done())) {
    if (Date.now() - started > deadlineMs) throw new Error(`${what}: not within ${deadlineMs} ms`);
    await sleep(100);
  }
  return Date.now() - started;
}

async function settledOnceEach(deps: Service): Promise<void> {
  expect(await count(deps, 'SUCCESS')).toBe(NUMBERS.length);
  const performed = await simulatedTopupCounts(deps.store.db);
  expect([...performed.values()]).toEqual(NUMBERS.map(() => 1));
  expect((await audit(deps)).problems).toEqual([]);
}

describeEachDialect('takeover of a dead worker\'s orders', (dialect) => {
  it('settles the orders a SIGKILLed server held within 25 s of its restart, each topped up once', async () => {
    const database = await createTestDatabase(dialect);
    // Long enough that the kill lands while every order is with the operator.
    const env = { ...databaseEnv(database.target), TOPUP_SIMULATOR_DELAY_MS: '5000', TOPUP_EUR_RON_RATE: '4.9773', TOPUP_RATE_LIMIT_PER_MINUTE: '0' };
    const { deps, key } = await setUp(database, env);
    const port = await freePort();
    const first = await startProcess(['serve'], env, port);
    try {
      await place(first.url!, key);
      await waitFor('all orders claimed', 10_000, async () => (await count(deps, 'PROCESSING')) === NUMBERS.length);
      await first.kill('SIGKILL');
      const second = await startProcess(['serve'], env, port);
      try {
        const took = await waitFor('orders settled after the restart', 25_000, async () => (await count(deps, 'SUCCESS')) === NUMBERS.length);
        process.stderr.write(`takeover [${dialect}]: ${NUMBERS.length} orders settled ${took} ms after the restart\n`);
        await settledOnceEach(deps);
      } finally {
        await second.kill('SIGTERM');
      }
    } finally {
      await first.kill('SIGKILL');
      await deps.close();
      await database.drop();
    }
  }, 90_000);
});

describe.skipIf(!inject('postgres'))('takeover across worker processes [postgres]', () => {
  it('finishes a killed worker\'s orders in another worker within 30 s', async () => {
    const database = await createTestDatabase('postgres');
    const env = { ...databaseEnv(database.target), TOPUP_SIMULATOR_DELAY_MS: '5000', TOPUP_EUR_RON_RATE: '4.9773', TOPUP_RATE_LIMIT_PER_MINUTE: '0' };
    const { deps, key } = await setUp(database, env);
    const api = await startProcess(['serve', '--no-worker'], env, await freePort());
    const doomed = await startProcess(['worker'], env);
    const survivor: { kill(signal: NodeJS.Signals): Promise<number | null> }[] = [];
    try {
      await place(api.url!, key);
      await waitFor('all orders claimed by the first worker', 10_000, async () => (await count(deps, 'PROCESSING')) === NUMBERS.length);
      survivor.push(await startProcess(['worker'], env));
      await doomed.kill('SIGKILL');
      const took = await waitFor('orders settled by the other worker', 30_000, async () => (await count(deps, 'SUCCESS')) === NUMBERS.length);
      process.stderr.write(`takeover across workers [postgres]: settled ${took} ms after the kill\n`);
      await settledOnceEach(deps);
    } finally {
      await Promise.all([api.kill('SIGTERM'), doomed.kill('SIGKILL'), ...survivor.map((s) => s.kill('SIGTERM'))]);
      await deps.close();
      await database.drop();
    }
  }, 90_000);
});
