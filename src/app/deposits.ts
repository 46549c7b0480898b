import type { Deposit } from '../domain/deposit.js';
import { AppError } from '../domain/errors.js';
import { parseDecimal } from '../domain/money.js';
import { cursorInfo, pageInfo, type CursorInfo, type PageInfo, type PageRequest } from '../domain/pagination.js';
import { creditDeposit } from '../store/accounts.repository.js';
import * as deposits from '../store/deposits.repository.js';
import { appendLedgerEntries } from '../store/ledger.repository.js';
import { requireAccount } from './accounts.js';
import type { Deps } from './deps.js';
import { newId } from './ids.js';

/** The largest single deposit: a typo guard (an extra zero or two), far above any real transfer. */
const MAX_DEPOSIT_MINOR = 100_000_000_00n;

/** Credits money received from a customer: the deposit, the balance and the ledger in one transaction. */
export async function addDeposit(
  deps: Deps,
  input: { accountId: string; amount: string; reference?: string },
): Promise<{ deposit: Deposit; balance: bigint }> {
  const amount = parseDecimal(input.amount, 2);
  if (amount === undefined || amount <= 0n || amount > MAX_DEPOSIT_MINOR) {
    throw new AppError('validation_failed', 'The amount must be a positive number with at most 2 decimals, at most 100000000.00.');
  }
  if (input.reference !== undefined && input.reference.length > 200) {
    throw new AppError('validation_failed', 'The reference must be at most 200 characters.');
  }
  const account = await requireAccount(deps, input.accountId);
  const createdAt = deps.clock.now();
  const deposit: Deposit = { id: newId('dep'), accountId: account.id, amount, currency: account.currency, reference: input.reference ?? null, createdAt };
  const balance = await deps.store.transact(async (tx) => {
    await deposits.insertDeposit(tx, deposit);
    const balanceAfter = await creditDeposit(tx, account.id, amount);
    await appendLedgerEntries(tx, [{ accountId: account.id, kind: 'deposit', amount, balanceAfter, depositId: deposit.id, createdAt }]);
    return balanceAfter;
  });
  return { deposit, balance };
}

/** One page of an account's deposits, most recent first: page `page`, or the ones after `after`. */
export async function listDeposits(
  deps: Deps,
  accountId: string,
  query: PageRequest & { readonly after?: string },
): Promise<{ deposits: Deposit[]; page: PageInfo | CursorInfo }> {
  if (query.after !== undefined) {
    const request = { after: query.after, limit: query.limit };
    const { rows, total } = await deposits.listDeposits(deps.store.db, accountId, request);
    if (!rows) {
      const message = `after: no deposit ${query.after} in this account`;
      throw new AppError('invalid_query', message, [{ field: 'after', code: 'invalid', message }]);
    }
    return { deposits: rows, page: cursorInfo(request, total, rows.map((d) => d.id)) };
  }
  const page = { page: query.page, limit: query.limit };
  const { rows, total } = await deposits.listDeposits(deps.store.db, accountId, page);
  return { deposits: rows ?? [], page: pageInfo(page, total) };
}
