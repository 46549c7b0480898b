import { formatDecimal } from '../domain/money.js';
import { accountBooks, ordersInImpossibleStates, ordersWithWrongEntries } from '../store/audit.repository.js';
import { requireAccount } from './accounts.js';
import type { Deps } from './deps.js';

export interface AuditProblem {
  readonly account?: string;
  readonly order?: string;
  readonly check: string;
  readonly expected: string;
  readonly actual: string;
}

/**
 * Reconciles the books from the raw rows: every balance equals the sum of its ledger entries and its
 * deposits less what non-failed orders cost; the maintained totals equal totals recomputed from the
 * orders; every order has exactly one debit and, if FAILED, exactly one refund; no order is in an
 * impossible state. Read-only.
 */
export async function audit(deps: Deps, accountId?: string) {
  if (accountId !== undefined) await requireAccount(deps, accountId);
  const problems: AuditProblem[] = [];
  const books = await accountBooks(deps.store.db, accountId);
  for (const b of books) {
    const add = (check: string, expected: bigint, actual: bigint, money = true) => {
      if (expected !== actual) {
        const show = (v: bigint) => (money ? formatDecimal(v) : v.toString());
        problems.push({ account: b.accountId, check, expected: show(expected), actual: show(actual) });
      }
    };
    add('balance = sum of ledger entries', b.ledgerSum, b.balance);
    add('total_deposits = sum of deposits', b.depositSum, b.totalDeposits);
    add('balance = deposits − deductions of orders not FAILED', b.totalDeposits - b.recomputed.amountGross - b.recomputed.feeGross, b.balance);
    add('orders counted (not FAILED)', b.recomputed.count, b.maintained.count, false);
    add('orders placed', b.recomputed.placed, b.maintained.placed, false);
    add('totalAmountNet', b.recomputed.amountNet, b.maintained.amountNet);
    add('totalAmountGross', b.recomputed.amountGross, b.maintained.amountGross);
    add('totalFastRechargeFeeNet', b.recomputed.feeNet, b.maintained.feeNet);
    add('totalFastRechargeFeeGross', b.recomputed.feeGross, b.maintained.feeGross);
    if (b.balance < 0n) problems.push({ account: b.accountId, check: 'balance ≥ 0', expected: '≥ 0', actual: formatDecimal(b.balance) });
  }
  for (const o of await ordersWithWrongEntries(deps.store.db, accountId)) {
    problems.push({
      order: o.order_id,
      check: 'one debit, and one refund if FAILED',
      expected: o.status === 'FAILED' ? '1 debit, 1 refund' : '1 debit, 0 refunds',
      actual: `${String(o.debits)} debit(s), ${String(o.refunds)} refund(s)`,
    });
  }
  for (const o of await ordersInImpossibleStates(deps.store.db, accountId)) {
    problems.push({ order: o.id, check: 'possible state', expected: 'a state the lifecycle can produce', actual: o.status });
  }
  const orders = books.reduce((sum, b) => sum + Number(b.recomputed.placed), 0);
  return { ok: problems.length === 0, accounts: books.length, orders, problems };
}
