import { expect, it } from 'vitest';
import { createAccount } from '../../src/app/accounts.js';
import { createApiKey } from '../../src/app/api-keys.js';
import { audit } from '../../src/app/audit.js';
import { addDeposit } from '../../src/app/deposits.js';
import { checkNumber } from '../../src/app/number-check.js';
import type { Service } from '../../src/main.js';
import { databaseEnv } from '../support/cli.js';
import { createTestDatabase, describeEachDialect, processDeps } from '../support/harness.js';
import { freePort, startProcess, type ServiceProcess } from '../support/processes.js';

// A reseller instance fulfilling through a wholesale instance, both real processes. The reseller is
// SIGKILLed three times while its orders are with the wholesale instance: every order still ends once,
// no order is placed upstream twice, and both instances' books reconcile.

const NUMBERS = Array.from({ length: 10 }, (_, i) => `074480${String(i).padStart(4, '0')}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const base = { TOPUP_EUR_RON_RATE: '4.9773', TOPUP_RATE_LIMIT_PER_MINUTE: '0', TOPUP_SIMULATOR_DELAY_MS: '300', TOPUP_SIMULATOR_FAST_DELAY_MS: '300' };

async function accountWithKey(deps: Service, name: string, credit: string, currency: 'RON' | 'EUR') {
  const account = await createAccount(deps, { name, currency });
  await addDeposit(deps, { accountId: account.id, amount: credit });
  for (const n of NUMBERS) await checkNumber(deps, { accountId: account.id, keyId: 'k', currency, environment: 'staging', scope: 'full' }, n);
  return { accountId: account.id, key: (await createApiKey(deps, account.id)).key };
}

const statusCounts = async (deps: Service, accountId: string) => {
  const rows = await deps.store.db.selectFrom('orders').select(['status']).where('account_id', '=', accountId).execute();
  return rows.reduce<Record<string, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});
};

describeEachDialect('a reseller over a wholesale instance, killed mid-flight', (dialect) => {
  it('places every order upstream at most once and settles it once, across three SIGKILLs', async () => {
    const wholesaleDb = await createTestDatabase('sqlite');
    const resellerDb = await createTestDatabase(dialect);
    const wholesaleEnv = { ...databaseEnv(wholesaleDb.target), ...base };
    const wholesale = await processDeps(wholesaleDb.target, wholesaleEnv);
    const atWholesale = await accountWithKey(wholesale, 'reseller', '100000.00', 'EUR');
    const wholesalePort = await freePort();
    const resellerEnv = {
      ...databaseEnv(resellerDb.target),
      ...base,
      TOPUP_UPSTREAM: 'topup',
      TOPUP_UPSTREAM_TOPUP_URL: `http://127.0.0.1:${wholesalePort}`,
      TOPUP_UPSTREAM_TOPUP_KEY: atWholesale.key,
    };
    const reseller = await processDeps(resellerDb.target, resellerEnv);
    const customer = await accountWithKey(reseller, 'customer', '100000.00', 'RON');
    const wholesaleProcess = await startProcess(['serve'], wholesaleEnv, wholesalePort);
    const resellerPort = await freePort();
    let resellerProcess: ServiceProcess | undefined;
    try {
      let placed = 0;
      for (let kill = 0; kill < 3; kill++) {
        resellerProcess = await startProcess(['serve'], resellerEnv, resellerPort);
        const response = await fetch(`${resellerProcess.url}/v1/recharge`, {
          method: 'POST',
          headers: { 'x-authorization': customer.key, 'content-type': 'application/json' },
          body: JSON.stringify({ recharges: NUMBERS.map((phone_number) => ({ phone_number, amount: 5 })) }),
        });
        expect(response.status).toBe(201);
        placed += NUMBERS.length;
        await sleep(50 + Math.floor(Math.random() * 400));
        await resellerProcess.kill('SIGKILL');
      }
      // What the kills left behind: orders held by a dead worker, attempts sent with no answer recorded.
      const left = await statusCounts(reseller, customer.accountId);
      const open = await reseller.store.db.selectFrom('upstream_attempts').select('state').where('state', 'in', ['sending', 'open']).execute();
      resellerProcess = await startProcess(['serve'], resellerEnv, resellerPort);
      const started = Date.now();
      for (;;) {
        const counts = await statusCounts(reseller, customer.accountId);
        if ((counts.SUCCESS ?? 0) + (counts.FAILED ?? 0) === placed) break;
        if (Date.now() - started > 90_000) throw new Error(`not settled within 90 s: ${JSON.stringify(counts)}`);
        await sleep(250);
      }
      process.stderr.write(`reseller crash [${dialect}]: left ${JSON.stringify(left)}, ${open.length} attempts open; ${placed} orders settled ${Date.now() - started} ms after the last restart\n`);
      expect(await statusCounts(reseller, customer.accountId)).toEqual({ SUCCESS: placed });
      // Upstream: one order per reseller order, none twice, all performed.
      const upstream = await wholesale.store.db.selectFrom('orders').select(['document_id', 'status']).where('account_id', '=', atWholesale.accountId).execute();
      const ids = (await reseller.store.db.selectFrom('orders').select('id').where('account_id', '=', customer.accountId).execute()).map((r) => r.id).sort();
      expect(upstream.map((o) => o.document_id).sort()).toEqual(ids);
      expect(upstream.every((o) => o.status === 'SUCCESS')).toBe(true);
      expect((await audit(reseller)).problems).toEqual([]);
      expect((await audit(wholesale)).problems).toEqual([]);
    } finally {
      await resellerProcess?.kill('SIGTERM');
      await wholesaleProcess.kill('SIGTERM');
      await reseller.close();
      await wholesale.close();
      await resellerDb.drop();
      await wholesaleDb.drop();
    }
  }, 180_000);
});
