// What the benchmark and the profiler share: the built service's use cases, an account to load it
// with, and waiting for a server to answer /readyz.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

export const { loadConfig } = await import(join(root, 'dist/config.js'));
export const { createDeps } = await import(join(root, 'dist/main.js'));
const { createAccount } = await import(join(root, 'dist/app/accounts.js'));
const { createApiKey } = await import(join(root, 'dist/app/api-keys.js'));
const { addDeposit } = await import(join(root, 'dist/app/deposits.js'));
const { checkNumber } = await import(join(root, 'dist/app/number-check.js'));
export const { addWebhook } = await import(join(root, 'dist/app/webhooks.js'));

/** An account with credit for hundreds of thousands of orders, a key and checked numbers, seeded through the use cases. */
export async function seedAccount(deps, numbers) {
  const account = await createAccount(deps, { name: 'bench', currency: 'RON' });
  for (let i = 0; i < 4; i++) await addDeposit(deps, { accountId: account.id, amount: '100000000.00' });
  const { key } = await createApiKey(deps, account.id);
  const principal = { accountId: account.id, keyId: 'bench', currency: 'RON', environment: 'staging' };
  for (const n of numbers) await checkNumber(deps, principal, n);
  return { accountId: account.id, key };
}

/** 100 orange numbers (0744 5xx xxx) from `first` on: one full-size recharge request's worth. */
export const benchNumbers = (first) => Array.from({ length: 100 }, (_, i) => `07445${String(first + i)}`);

export async function waitReady(url) {
  for (let i = 0; i < 200; i++) {
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became ready`);
}
