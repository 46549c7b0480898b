import { connect } from 'node:net';
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
    await checkNumber(deps, { accountId: account.id, keyId: 'k', currency: 'RON', environment: 'staging', scope: 'full' }, '0744700777');
    const { key } = await createApiKey(deps, account.id);
    const server = await startProcess(['serve'], env, await freePort());
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

  it('exits within 10 s of SIGTERM with a stalled client connected and an operator call hanging', async () => {
    const database = await createTestDatabase(dialect);
    // The operator takes a minute; the client sends half its headers and then nothing.
    const env = { ...databaseEnv(database.target), TOPUP_SIMULATOR_DELAY_MS: '60000', TOPUP_EUR_RON_RATE: '4.9773' };
    const deps = await processDeps(database.target, env);
    const account = await createAccount(deps, { name: 'stalled' });
    await addDeposit(deps, { accountId: account.id, amount: '100.00' });
    await checkNumber(deps, { accountId: account.id, keyId: 'k', currency: 'RON', environment: 'staging', scope: 'full' }, '0744700778');
    const { key } = await createApiKey(deps, account.id);
    const port = await freePort();
    const server = await startProcess(['serve'], env, port);
    const stalled = connect(port, '127.0.0.1');
    const connected = new Promise<void>((resolve) => stalled.once('connect', () => resolve()));
    try {
      const placed = await fetch(`${server.url}/v1/recharge`, {
        method: 'POST',
        headers: { 'x-authorization': key, 'content-type': 'application/json' },
        body: JSON.stringify({ recharges: [{ phone_number: '0744700778', amount: 5 }] }),
      });
      expect(placed.status).toBe(201);
      const status = async () => (await deps.store.db.selectFrom('orders').select('status').executeTakeFirstOrThrow()).status;
      for (let i = 0; i < 100 && (await status()) !== 'PROCESSING'; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await status()).toBe('PROCESSING');
      await connected;
      stalled.write('POST /v1/recharge HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Authorization: ');
      const signalled = Date.now();
      const code = await server.kill('SIGTERM');
      const took = Date.now() - signalled;
      process.stderr.write(`shutdown [${dialect}] with a stalled client and a hanging call: exited ${code} after ${took} ms\n`);
      expect(took).toBeLessThan(15_000);
      // It gave up on the call in hand: exit 1, and the order stays open for the next worker (never lost).
      expect(code).toBe(1);
      expect(await status()).toBe('PROCESSING');
    } finally {
      stalled.destroy();
      await server.kill('SIGKILL');
      await deps.close();
      await database.drop();
    }
  }, 40_000);
});
