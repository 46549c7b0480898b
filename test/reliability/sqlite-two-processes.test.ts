import { expect, it } from 'vitest';
import { createAccount } from '../../src/app/accounts.js';
import { createApiKey } from '../../src/app/api-keys.js';
import { audit } from '../../src/app/audit.js';
import { addDeposit } from '../../src/app/deposits.js';
import { checkNumber } from '../../src/app/number-check.js';
import { databaseEnv } from '../support/cli.js';
import { createTestDatabase, processDeps } from '../support/harness.js';
import { freePort, startProcess } from '../support/processes.js';

// `topup serve --no-worker` and `topup worker` on one SQLite file: two writers in two processes. Their
// transactions take the write lock up front (BEGIN IMMEDIATE) and wait for each other, instead of
// failing with SQLITE_BUSY (which gave eight 5xx among 200 concurrent recharges).
it('serves 1,000 concurrent recharges without a 5xx while a worker process settles them [sqlite]', async () => {
  const database = await createTestDatabase('sqlite');
  const env = { ...databaseEnv(database.target), TOPUP_SIMULATOR_DELAY_MS: '0', TOPUP_EUR_RON_RATE: '4.9773', TOPUP_RATE_LIMIT_PER_MINUTE: '0' };
  const deps = await processDeps(database.target, env);
  const numbers = Array.from({ length: 10 }, (_, i) => `074490${String(i).padStart(4, '0')}`);
  const account = await createAccount(deps, { name: 'two processes' });
  await addDeposit(deps, { accountId: account.id, amount: '100000.00' });
  for (const n of numbers) await checkNumber(deps, { accountId: account.id, keyId: 'k', currency: 'RON', environment: 'staging', scope: 'full' }, n);
  const { key } = await createApiKey(deps, account.id);
  const api = await startProcess(['serve', '--no-worker'], env, await freePort());
  const worker = await startProcess(['worker'], env, await freePort(), '--metrics-port');
  try {
    const statuses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        fetch(`${api.url}/v1/recharge`, {
          method: 'POST',
          headers: { 'x-authorization': key, 'content-type': 'application/json' },
          body: JSON.stringify({ recharges: [{ phone_number: numbers[i % numbers.length], amount: 5 }] }),
        }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    const open = async () =>
      Number((await deps.store.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('status', '!=', 'SUCCESS').executeTakeFirstOrThrow()).n);
    for (let i = 0; i < 600 && (await open()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await open()).toBe(0);
    expect((await audit(deps)).problems).toEqual([]);
    expect(api.output()).not.toMatch(/SQLITE_BUSY/);
    expect(worker.output()).not.toMatch(/SQLITE_BUSY/);
    // The worker process answers for its own work on --metrics-port: what it settled, what the operator
    // said, and that it is listening; the API process settled nothing.
    const scrape = async (url: string) => (await fetch(`${url}/metrics`)).text();
    const workerMetrics = await scrape(worker.url!);
    expect(workerMetrics).toContain('topup_orders_settled_total{status="SUCCESS"} 1000\n');
    expect(workerMetrics).toContain('topup_operator_call_duration_seconds_count{connector="simulator",outcome="success"} 1000\n');
    expect(workerMetrics).toContain('topup_listen_connected 1\n');
    expect(workerMetrics).toContain('topup_orders_open{status="PENDING"} 0\n');
    const apiMetrics = await scrape(api.url!);
    expect(apiMetrics).toContain('topup_orders_settled_total{status="SUCCESS"} 0\n');
    expect(apiMetrics).not.toContain('topup_listen_connected');
  } finally {
    await Promise.all([api.kill('SIGTERM'), worker.kill('SIGTERM')]);
    await deps.close();
    await database.drop();
  }
}, 90_000);
