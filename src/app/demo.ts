import type { Currency } from '../domain/currency.js';
import { AppError } from '../domain/errors.js';
import { createAccount, findAccountByName } from './accounts.js';
import { createApiKey } from './api-keys.js';
import { addDeposit } from './deposits.js';
import type { Deps } from './deps.js';

export const DEMO_ACCOUNT_NAME = 'demo';
const DEMO_CREDIT = '1000.00';

export interface DemoAccount {
  readonly accountId: string;
  readonly key: string;
  readonly keyId: string;
  /** Minor units. */
  readonly balance: bigint;
  readonly currency: Currency;
}

/** A staging account with test credit and a key, so a newcomer can make a first call at once. */
export async function createDemoAccount(deps: Deps): Promise<DemoAccount> {
  if (deps.config.environment !== 'staging') {
    throw new AppError('validation_failed', 'The demo account exists only in staging (TOPUP_ENV=staging).');
  }
  const account = await createAccount(deps, { name: DEMO_ACCOUNT_NAME, currency: 'RON' });
  const { balance } = await addDeposit(deps, { accountId: account.id, amount: DEMO_CREDIT, reference: 'demo credit' });
  const { apiKey, key } = await createApiKey(deps, account.id);
  return { accountId: account.id, key, keyId: apiKey.id, balance, currency: account.currency };
}

/** On first start only: an existing demo account is reported, not duplicated (its key was shown once). */
export async function ensureDemoAccount(deps: Deps): Promise<{ created: DemoAccount } | { existing: string }> {
  const existing = await findAccountByName(deps, DEMO_ACCOUNT_NAME);
  if (existing) return { existing: existing.id };
  return { created: await createDemoAccount(deps) };
}
