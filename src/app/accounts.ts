import type { Account } from '../domain/account.js';
import { isCurrency } from '../domain/currency.js';
import { AppError } from '../domain/errors.js';
import * as accounts from '../store/accounts.repository.js';
import type { Deps } from './deps.js';
import { newId } from './ids.js';

export interface NewAccount {
  readonly name: string;
  readonly currency?: string;
}

export async function createAccount(deps: Deps, input: NewAccount): Promise<Account> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 200) {
    throw new AppError('validation_failed', 'The account name must be 1 to 200 characters.');
  }
  const currency = input.currency ?? 'RON';
  if (!isCurrency(currency)) throw new AppError('validation_failed', 'The currency must be RON or EUR.');
  const id = newId('acc');
  await accounts.insertAccount(deps.store.db, { id, name, currency, createdAt: deps.clock.now() });
  return (await accounts.findAccount(deps.store.db, id))!;
}

/**
 * One account, with its balance and the totals kept in the same transactions that move the money:
 * exact to the cent, and one row read however many orders the account has.
 */
export async function requireAccount(deps: Deps, id: string): Promise<Account> {
  const account = await accounts.findAccount(deps.store.db, id);
  if (!account) throw new AppError('not_found', `No account ${id}.`);
  return account;
}

export function listAccounts(deps: Deps): Promise<Account[]> {
  return accounts.listAccounts(deps.store.db);
}

/** The demo account of a staging deployment, if `npm start` made one. */
export function findAccountByName(deps: Deps, name: string): Promise<Account | undefined> {
  return accounts.findAccountByName(deps.store.db, name);
}
