import { AppError } from '../domain/errors.js';
import { findAccountByName } from '../store/accounts.repository.js';
import { createAccount } from './accounts.js';
import { createApiKey } from './api-keys.js';
import { addDeposit } from './deposits.js';
import type { Deps } from './deps.js';

export const DEMO_ACCOUNT_NAME = 'demo';
const DEMO_CREDIT = '1000.00';

export interface DemoAccount {
  readonly accountId: string;
  readonly key: string;
  readonly keyId: string;
  readonly balance: number;
  readonly currency: string;
}

/** A staging account with test credit and a key, so a newcomer can make a first call at once. */
export async function createDemoAccount(deps: Deps): Promise<DemoAccount> {
  if (deps.config.environment !== 'staging') {
    throw new AppError('validation_failed', 'The demo account exists only in staging (TOPUP_ENV=staging).');
  }
  const account = await createAccount(deps, { name: DEMO_ACCOUNT_NAME, currency: 'RON' });
  const deposit = await addDeposit(deps, { accountId: account.id, amount: DEMO_CREDIT, reference: 'demo credit' });
  const key = await createApiKey(deps, account.id);
  return { accountId: account.id, key: key.key, keyId: key.id, balance: deposit.balance, currency: deposit.currency };
}

/** On first start only: an existing demo account is reported, not duplicated (its key was shown once). */
export async function ensureDemoAccount(deps: Deps): Promise<{ created: DemoAccount } | { existing: string }> {
  const existing = await findAccountByName(deps.store.db, DEMO_ACCOUNT_NAME);
  if (existing) return { existing: existing.id };
  return { created: await createDemoAccount(deps) };
}

export function curlExample(baseUrl: string, key: string): string {
  return `curl -s ${baseUrl}/v1/account/balance -H 'X-Authorization: ${key}'`;
}
