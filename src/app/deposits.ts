import { AppError } from '../domain/errors.js';
import { parseDecimal, toJsonNumber } from '../domain/money.js';
import { pageInfo, type PageRequest } from '../domain/pagination.js';
import { creditDeposit } from '../store/accounts.repository.js';
import * as deposits from '../store/deposits.repository.js';
import { appendLedgerEntries } from '../store/ledger.repository.js';
import { requireAccount } from './accounts.js';
import type { Deps } from './deps.js';
import { newId } from './ids.js';

/** The largest single deposit: a typo guard (an extra zero or two), far above any real transfer. */
const MAX_DEPOSIT_MINOR = 100_000_000_00n;

export async function addDeposit(deps: Deps, input: { accountId: string; amount: string; reference?: string }) {
  const amount = parseDecimal(input.amount, 2);
  if (amount === undefined || amount <= 0n || amount > MAX_DEPOSIT_MINOR) {
    throw new AppError('validation_failed', 'The amount must be a positive number with at most 2 decimals, at most 100000000.00.');
  }
  if (input.reference !== undefined && input.reference.length > 200) {
    throw new AppError('validation_failed', 'The reference must be at most 200 characters.');
  }
  const account = await requireAccount(deps, input.accountId);
  const id = newId('dep');
  const createdAt = deps.clock.now();
  const balance = await deps.store.transact(async (tx) => {
    await deposits.insertDeposit(tx, {
      id,
      accountId: account.id,
      amount,
      currency: account.currency,
      reference: input.reference ?? null,
      createdAt,
    });
    const balanceAfter = await creditDeposit(tx, account.id, amount);
    await appendLedgerEntries(tx, [{ accountId: account.id, kind: 'deposit', amount, balanceAfter, depositId: id, createdAt }]);
    return balanceAfter;
  });
  return { id, amount: toJsonNumber(amount), currency: account.currency, balance: toJsonNumber(balance) };
}

export function depositView(d: deposits.DepositRecord) {
  return {
    id: d.id,
    amount: toJsonNumber(d.amount),
    currency: d.currency,
    reference: d.reference,
    created_at: new Date(d.createdAt).toISOString(),
  };
}

export async function listDeposits(deps: Deps, accountId: string, page: PageRequest) {
  const { rows, total } = await deposits.listDeposits(deps.store.db, accountId, page);
  return { data: rows.map(depositView), pagination: pageInfo(page, total) };
}
