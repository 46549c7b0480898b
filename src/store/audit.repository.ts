import { sql } from 'kysely';
import { big } from './convert.js';
import type { Db } from './database.js';

/** Figures recomputed from the raw rows, per account, to compare with what the service maintains. */
export interface AccountBooks {
  readonly accountId: string;
  readonly balance: bigint;
  readonly totalDeposits: bigint;
  readonly maintained: { count: bigint; placed: bigint; amountNet: bigint; amountGross: bigint; feeNet: bigint; feeGross: bigint };
  readonly ledgerSum: bigint;
  readonly depositSum: bigint;
  readonly recomputed: { count: bigint; placed: bigint; amountNet: bigint; amountGross: bigint; feeNet: bigint; feeGross: bigint };
}

const n = (v: unknown) => big((v ?? 0) as number | bigint);

export async function accountBooks(db: Db, accountId?: string): Promise<AccountBooks[]> {
  let accounts = db.selectFrom('accounts').selectAll();
  if (accountId) accounts = accounts.where('id', '=', accountId);
  const rows = await accounts.orderBy('id').execute();
  const filter = accountId ? sql`where account_id = ${accountId}` : sql``;
  const ledger = await sql<{ account_id: string; total: unknown }>`select account_id, sum(amount) as total from ledger_entries ${filter} group by account_id`.execute(db);
  const deposits = await sql<{ account_id: string; total: unknown }>`select account_id, sum(amount) as total from deposits ${filter} group by account_id`.execute(db);
  const orders = await sql<{
    account_id: string;
    placed: unknown;
    kept: unknown;
    amount_net: unknown;
    amount_gross: unknown;
    fee_net: unknown;
    fee_gross: unknown;
  }>`select account_id, count(*) as placed,
        sum(case when status <> 'FAILED' then 1 else 0 end) as kept,
        sum(case when status <> 'FAILED' then amount_net else 0 end) as amount_net,
        sum(case when status <> 'FAILED' then amount_gross else 0 end) as amount_gross,
        sum(case when status <> 'FAILED' then fee_net else 0 end) as fee_net,
        sum(case when status <> 'FAILED' then fee_gross else 0 end) as fee_gross
      from orders ${filter} group by account_id`.execute(db);
  const byAccount = <T extends { account_id: string }>(r: { rows: T[] }) => new Map(r.rows.map((x) => [x.account_id, x]));
  const ledgerBy = byAccount(ledger);
  const depositBy = byAccount(deposits);
  const orderBy = byAccount(orders);
  return rows.map((a) => {
    const o = orderBy.get(a.id);
    return {
      accountId: a.id,
      balance: big(a.balance),
      totalDeposits: big(a.total_deposits),
      maintained: {
        count: big(a.orders_count),
        placed: big(a.orders_placed),
        amountNet: big(a.orders_amount_net),
        amountGross: big(a.orders_amount_gross),
        feeNet: big(a.orders_fee_net),
        feeGross: big(a.orders_fee_gross),
      },
      ledgerSum: n(ledgerBy.get(a.id)?.total),
      depositSum: n(depositBy.get(a.id)?.total),
      recomputed: {
        count: n(o?.kept),
        placed: n(o?.placed),
        amountNet: n(o?.amount_net),
        amountGross: n(o?.amount_gross),
        feeNet: n(o?.fee_net),
        feeGross: n(o?.fee_gross),
      },
    };
  });
}

/** Orders whose ledger entries are not exactly one debit of their deduction, plus one refund if FAILED. */
export async function ordersWithWrongEntries(db: Db, accountId?: string): Promise<Array<{ order_id: string; status: string; debits: unknown; refunds: unknown }>> {
  const filter = accountId ? sql`and o.account_id = ${accountId}` : sql``;
  // One pass: count each order's ledger entries once, then keep the orders whose counts are wrong.
  const result = await sql<{ order_id: string; status: string; debits: unknown; refunds: unknown }>`
    select order_id, status, debits, refunds from (
      select o.id as order_id, o.status,
        sum(case when l.kind = 'recharge' and l.amount = -o.deduction then 1 else 0 end) as debits,
        sum(case when l.kind = 'refund' and l.amount = o.deduction then 1 else 0 end) as refunds,
        count(l.id) as entries
      from orders o left join ledger_entries l on l.order_id = o.id
      where 1 = 1 ${filter}
      group by o.id, o.status
    ) books
    where debits <> 1
       or refunds <> (case when status = 'FAILED' then 1 else 0 end)
       or entries <> (case when status = 'FAILED' then 2 else 1 end)
    limit 100`.execute(db);
  return result.rows;
}

/**
 * Orders in a state the lifecycle cannot produce. A PROCESSING order is either held by a worker or
 * awaiting an upstream's answer (an open attempt); a settled order has no open attempt.
 */
export async function ordersInImpossibleStates(db: Db, accountId?: string): Promise<Array<{ id: string; status: string }>> {
  const openAttempt = db.selectFrom('upstream_attempts as a').select('a.reference').where('a.state', 'in', ['sending', 'open']);
  let query = db
    .selectFrom('orders')
    .select(['id', 'status'])
    .where((eb) =>
      eb.or([
        eb('status', 'not in', ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED']),
        eb.and([
          eb('status', '=', 'PROCESSING'),
          eb('claimed_by', 'is', null),
          eb.not(eb.exists(openAttempt.where('a.order_id', '=', eb.ref('orders.id')))),
        ]),
        eb.and([eb('status', 'in', ['SUCCESS', 'FAILED']), eb.exists(openAttempt.where('a.order_id', '=', eb.ref('orders.id')))]),
        eb.and([eb('status', '=', 'SUCCESS'), eb('operator_reference', 'is', null)]),
        eb.and([eb('status', '=', 'FAILED'), eb('failure_reason', 'is', null)]),
        eb.and([eb('status', 'in', ['SUCCESS', 'FAILED']), eb('claimed_by', 'is not', null)]),
        eb('attempts', '<', 0),
        eb('deduction', '<>', eb(eb.ref('amount_gross'), '+', eb.ref('fee_gross'))),
      ]),
    );
  if (accountId) query = query.where('account_id', '=', accountId);
  return query.limit(100).execute();
}
