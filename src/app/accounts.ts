import { isCurrency, type Currency } from '../domain/currency.js';
import { AppError } from '../domain/errors.js';
import { toJsonNumber } from '../domain/money.js';
import * as accounts from '../store/accounts.repository.js';
import type { Deps } from './deps.js';
import { newId } from './ids.js';

export interface NewAccount {
  readonly name: string;
  readonly currency?: string;
}

export async function createAccount(deps: Deps, input: NewAccount): Promise<accounts.AccountRecord> {
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

export async function requireAccount(deps: Deps, id: string): Promise<accounts.AccountRecord> {
  const account = await accounts.findAccount(deps.store.db, id);
  if (!account) throw new AppError('not_found', `No account ${id}.`);
  return account;
}

export function listAccounts(deps: Deps): Promise<accounts.AccountRecord[]> {
  return accounts.listAccounts(deps.store.db);
}

export interface BalanceView {
  readonly balance: number;
  readonly currency: Currency;
}

export async function accountBalance(deps: Deps, accountId: string): Promise<BalanceView> {
  const account = await requireAccount(deps, accountId);
  return { balance: toJsonNumber(account.balance), currency: account.currency };
}

/**
 * The account summary of the interface document. Every figure comes from totals kept in the same
 * transactions that move the money, so it is exact to the cent and costs one row read however many
 * orders the account has.
 */
export async function accountSummary(deps: Deps, accountId: string) {
  const account = await requireAccount(deps, accountId);
  const o = account.orders;
  const totalDeducted = o.amountGross + o.feeGross;
  return {
    currency: account.currency,
    totalDeposits: toJsonNumber(account.totalDeposits),
    totalConsumed: toJsonNumber(account.totalDeposits - account.balance),
    creditRemaining: toJsonNumber(account.balance),
    orderSummary: {
      recharges: {
        count: Number(o.count),
        totalAmountNet: toJsonNumber(o.amountNet),
        totalAmountGross: toJsonNumber(o.amountGross),
        totalFastRechargeFeeNet: toJsonNumber(o.feeNet),
        totalFastRechargeFeeGross: toJsonNumber(o.feeGross),
        totalVat: toJsonNumber(totalDeducted - o.amountNet - o.feeNet),
        totalDeducted: toJsonNumber(totalDeducted),
      },
    },
  };
}
