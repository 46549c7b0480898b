import { expect, it } from 'vitest';
import { createAccount } from '../../src/app/accounts.js';
import { createApiKey } from '../../src/app/api-keys.js';
import { addDeposit } from '../../src/app/deposits.js';
import { checkNumber } from '../../src/app/number-check.js';
import { databaseEnv } from '../support/cli.js';
import { createTestDatabase, describeEachDialect, processDeps } from '../support/harness.js';
import { freePort, startProcess } from '../support/processes.js';

describeEachDialect('graceful shutdown', (dialect) => {
  it('on SIGTERM finishes the orders in hand, then exits 0', async () => {
    const database = await createTestDatabase(dialect);
    const env = { ...databaseEnv(database.target), TOPUP_SIMULATOR_DELAY_MS: '1500', TOPUP_EUR_RON_RATE: '4.9773' };
    const deps = await processDeps(database.target, env);
    const store = deps.store;
    const account = await createAccount(deps, { name: 'shutdown' });
    await addDeposit(deps, { accountId: account.id, amount: '100.00' });
    await checkNumber(deps, { accountId: account.id, keyId: 'k', currency: 'RON', environment: 'staging' }, '0744700777');
    const { key } = await createApiKey(deps, account.id);
    const server = await startProcess(['serve'], env, freePort());
    try {
      const placed = await fetch(`${server.url}/v1/recharge`, {
        method: 'POST',
        headers: { 'x-authorization': key, 'content-type': 'application/json' },
        body: JSON.stringify({ recharges: [{ phone_number: '0744700777', amount: 5 }] }),
      });
      expect(placed.status).toBe(201);
      const status = async () => (await store.db.selectFrom('orders').select('status').executeTakeFirstOrThrow()).status;
      for (let i = 0; i < 100 && (await status()) !== 'PROCESSING'; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await status()).toBe('PROCESSING');
      // The operator call is under way (1.5 s); SIGTERM must wait for it and record its answer.
      expect(await server.kill('SIGTERM')).toBe(0);
      expect(await status()).toBe('SUCCESS');
    } finally {
      await server.kill('SIGKILL');
      await store.close();
      await database.drop();
    }
  }, 30_000);
});
