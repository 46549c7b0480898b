import { sql, type Insertable, type Selectable } from 'kysely';
import type { Currency } from '../domain/currency.js';
import type { Operator } from '../domain/operators.js';
import type { Order, OrderFilter, OrderListEntry, OrderTotals } from '../domain/order.js';
import type { OrderStatus } from '../domain/order-status.js';
import { isCursor, pageOffset, type CursorRequest, type PageRequest } from '../domain/pagination.js';
import { big, flag, num } from './convert.js';
import type { Db, Tx } from './database.js';
import { appendLedgerEntries } from './ledger.repository.js';
import { prepared, preparedInsert } from './prepared.js';
import { dialectOf } from './dialect.js';
import type { OrdersTable } from './schema.js';

/** The columns an order listing shows (its view); reading all 32 per row doubled SQLite's share of a page. */
const LIST_COLUMNS = ['id', 'msisdn', 'operator', 'amount', 'status', 'fast', 'created_at', 'updated_at', 'failure_reason', 'passthrough'] as const;

function toListEntry(r: Pick<Selectable<OrdersTable>, (typeof LIST_COLUMNS)[number]>): OrderListEntry {
  return {
    id: r.id,
    msisdn: r.msisdn,
    operator: r.operator as Operator,
    amount: big(r.amount),
    status: r.status as OrderStatus,
    fast: flag(r.fast),
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
    failureReason: r.failure_reason,
    passthrough: r.passthrough,
  };
}

// Written out in full rather than spreading toListEntry's result: the spread made every record a slow
// object (the mapper 13 % and GC 15 % of a worker's drain profile, which halved its rate).
export function toOrder(r: Selectable<OrdersTable>): Order {
  return {
    id: r.id,
    accountId: r.account_id,
    requestId: r.request_id,
    arrayPosition: num(r.array_position),
    msisdn: r.msisdn,
    operator: r.operator as Operator,
    amount: big(r.amount),
    fast: flag(r.fast),
    currency: r.currency as Currency,
    eurRon: big(r.eur_ron_rate),
    vat: big(r.vat_rate),
    fastFee: big(r.fast_fee),
    amountRon: big(r.amount_ron),
    fastFeeRon: big(r.fast_fee_ron),
    netRon: big(r.net_ron),
    grossRon: big(r.gross_ron),
    amountNet: big(r.amount_net),
    amountGross: big(r.amount_gross),
    feeNet: big(r.fee_net),
    feeGross: big(r.fee_gross),
    deduction: big(r.deduction),
    status: r.status as OrderStatus,
    attempts: num(r.attempts),
    nextAttemptAt: num(r.next_attempt_at),
    claimedBy: r.claimed_by,
    operatorReference: r.operator_reference,
    failureReason: r.failure_reason,
    passthrough: r.passthrough,
    documentId: r.document_id,
    webhookName: r.webhook_name,
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  };
}

type OrderRow = Insertable<OrdersTable>;

function orderRow(o: Order): OrderRow {
  return {
    id: o.id,
    account_id: o.accountId,
    request_id: o.requestId,
    array_position: o.arrayPosition,
    msisdn: o.msisdn,
    operator: o.operator,
    amount: o.amount,
    fast: o.fast ? 1 : 0,
    currency: o.currency,
    eur_ron_rate: o.eurRon,
    vat_rate: o.vat,
    fast_fee: o.fastFee,
    amount_ron: o.amountRon,
    fast_fee_ron: o.fastFeeRon,
    net_ron: o.netRon,
    gross_ron: o.grossRon,
    amount_net: o.amountNet,
    amount_gross: o.amountGross,
    fee_net: o.feeNet,
    fee_gross: o.feeGross,
    deduction: o.deduction,
    status: o.status,
    attempts: o.attempts,
    next_attempt_at: o.nextAttemptAt,
    claimed_by: o.claimedBy,
    operator_reference: o.operatorReference,
    failure_reason: o.failureReason,
    passthrough: o.passthrough,
    document_id: o.documentId,
    webhook_name: o.webhookName,
    created_at: o.createdAt,
    updated_at: o.updatedAt,
  };
}

const ORDER_COLUMNS = [
  'id', 'account_id', 'request_id', 'array_position', 'msisdn', 'operator', 'amount', 'fast', 'currency', 'eur_ron_rate',
  'vat_rate', 'fast_fee', 'amount_ron', 'fast_fee_ron', 'net_ron', 'gross_ron', 'amount_net', 'amount_gross', 'fee_net',
  'fee_gross', 'deduction', 'status', 'attempts', 'next_attempt_at', 'claimed_by', 'operator_reference', 'failure_reason',
  'passthrough', 'document_id', 'webhook_name', 'created_at', 'updated_at',
] as const;

const insertOrderRows = preparedInsert((db: Db, rows: OrderRow[]) => db.insertInto('orders').values(rows), ORDER_COLUMNS);

export async function insertOrders(tx: Tx, orders: readonly Order[]): Promise<void> {
  await insertOrderRows.execute(tx, orders.map(orderRow));
}

/** What placing a batch of orders takes from an account: the totals, and each order's own deduction. */
export interface OrderCharge {
  readonly accountId: string;
  readonly totals: OrderTotals;
  readonly orders: ReadonlyArray<Pick<Order, 'id' | 'deduction'>>;
  readonly createdAt: number;
}

const debit = prepared((db: Db, p: { accountId: string; totals: OrderTotals }) =>
  db
    .updateTable('accounts')
    .set((eb) => ({
      balance: eb('balance', '-', p.totals.deduction),
      orders_count: eb('orders_count', '+', p.totals.count),
      orders_placed: eb('orders_placed', '+', p.totals.count),
      orders_amount_net: eb('orders_amount_net', '+', p.totals.amountNet),
      orders_amount_gross: eb('orders_amount_gross', '+', p.totals.amountGross),
      orders_fee_net: eb('orders_fee_net', '+', p.totals.feeNet),
      orders_fee_gross: eb('orders_fee_gross', '+', p.totals.feeGross),
    }))
    .where('id', '=', p.accountId)
    .where('balance', '>=', p.totals.deduction)
    .returning('balance'),
);

/**
 * Takes the money for a batch, adds it to the account's order totals and appends one ledger entry per
 * order, only if the balance covers it: the guard and the CHECK constraint, not a prior read, decide.
 * Returns the new balance, or undefined when the credit is short (and then writes nothing).
 *
 * Call it last before the commit: the debit locks the account's row, and on PostgreSQL every other
 * placement for the same account waits on that lock until this transaction commits. There it is one
 * statement, the ledger rows written from the debit's RETURNING, so the lock is held for one round trip
 * and the commit.
 */
export async function chargeForOrders(tx: Tx, charge: OrderCharge): Promise<bigint | undefined> {
  const { accountId, totals, orders, createdAt } = charge;
  // Entries are applied in order: each one's balance_after is the final balance plus what the later ones took.
  const later: bigint[] = [];
  let sum = 0n;
  for (let i = orders.length - 1; i >= 0; i--) {
    later[i] = sum;
    sum += orders[i]!.deduction;
  }
  if (dialectOf(tx) === 'postgres') {
    // int8 comes back as BigInt (see exactPgTypes in database.ts).
    const { rows } = await sql<{ balance_after: bigint }>`
      with debited as (
        update accounts set
          balance = balance - ${totals.deduction},
          orders_count = orders_count + ${totals.count},
          orders_placed = orders_placed + ${totals.count},
          orders_amount_net = orders_amount_net + ${totals.amountNet},
          orders_amount_gross = orders_amount_gross + ${totals.amountGross},
          orders_fee_net = orders_fee_net + ${totals.feeNet},
          orders_fee_gross = orders_fee_gross + ${totals.feeGross}
        where id = ${accountId} and balance >= ${totals.deduction}
        returning balance
      )
      insert into ledger_entries (account_id, kind, amount, balance_after, order_id, created_at)
      select ${accountId}, 'recharge', -e.deduction, debited.balance + e.later, e.order_id, ${createdAt}
      from debited cross join unnest(${orders.map((o) => o.id)}::text[], ${orders.map((o) => String(o.deduction))}::bigint[], ${later.map(String)}::bigint[])
        with ordinality as e(order_id, deduction, later, position)
      order by e.position
      returning balance_after`.execute(tx);
    // The new balance is the last entry's balance_after, i.e. the smallest (RETURNING promises no order).
    if (rows.length === 0) return undefined;
    return rows.reduce((least, r) => (r.balance_after < least ? r.balance_after : least), rows[0]!.balance_after);
  }
  const [row] = await debit.execute(tx, { accountId, totals });
  if (!row) return undefined;
  const balance = big(row.balance);
  await appendLedgerEntries(
    tx,
    orders.map((o, i) => ({ accountId, kind: 'recharge', amount: -o.deduction, balanceAfter: balance + later[i]!, orderId: o.id, createdAt })),
  );
  return balance;
}

/** Gives a FAILED order's deduction back and takes it out of the totals; returns the new balance. */
export async function refundOrder(tx: Tx, order: Order): Promise<bigint> {
  const row = await tx
    .updateTable('accounts')
    .set((eb) => ({
      balance: eb('balance', '+', order.deduction),
      orders_count: eb('orders_count', '-', 1),
      orders_amount_net: eb('orders_amount_net', '-', order.amountNet),
      orders_amount_gross: eb('orders_amount_gross', '-', order.amountGross),
      orders_fee_net: eb('orders_fee_net', '-', order.feeNet),
      orders_fee_gross: eb('orders_fee_gross', '-', order.feeGross),
    }))
    .where('id', '=', order.accountId)
    .returning('balance')
    .executeTakeFirstOrThrow();
  return big(row.balance);
}

const hasFilter = (f: OrderFilter) => Object.values(f).some((v) => v !== undefined);

/** An account's orders matching the filter (each filter has an index that carries the listing's order). */
function filtered(db: Db, accountId: string, filter: OrderFilter) {
  let query = db.selectFrom('orders').where('account_id', '=', accountId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.msisdn) query = query.where('msisdn', '=', filter.msisdn);
  if (filter.documentId) query = query.where('document_id', '=', filter.documentId);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
  return query;
}

/** Where an export stopped: the listing position of the last order sent. */
export interface ExportPosition {
  readonly createdAt: number;
  readonly arrayPosition: number;
  readonly id: string;
}

/** One order as an export writes it: the listing's fields, its document id and what it cost. */
export type ExportedOrder = OrderListEntry & Pick<Order, 'documentId' | 'deduction' | 'currency' | 'arrayPosition'>;

/** The next `limit` orders of an export after `position`, in the listing's order (keyset: flat at any depth). */
export async function exportPage(db: Db, accountId: string, filter: OrderFilter, position: ExportPosition | undefined, limit: number): Promise<ExportedOrder[]> {
  let query = filtered(db, accountId, filter)
    .select([...LIST_COLUMNS, 'document_id', 'deduction', 'currency', 'array_position'])
    .orderBy('created_at', 'desc')
    .orderBy('array_position', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
  if (position) {
    query = query.where((eb) => eb(eb.refTuple('created_at', 'array_position', 'id'), '<', eb.tuple(position.createdAt, position.arrayPosition, position.id)));
  }
  const rows = await query.execute();
  return rows.map((r) => ({
    ...toListEntry(r),
    documentId: r.document_id,
    deduction: big(r.deduction),
    currency: r.currency as Order['currency'],
    arrayPosition: num(r.array_position),
  }));
}

/**
 * One page of an account's orders, most recent first, and how many match in all: by page number (an
 * offset), or after a given order (a keyset: the listing index is entered at that order, however deep).
 * `rows` is undefined when `after` names no order of the account.
 */
export async function listOrders(
  db: Db,
  accountId: string,
  filter: OrderFilter,
  page: PageRequest | CursorRequest,
): Promise<{ rows: OrderListEntry[] | undefined; total: number }> {
  const query = filtered(db, accountId, filter);
  let rowsQuery = query.select(LIST_COLUMNS).orderBy('created_at', 'desc').orderBy('array_position', 'desc').orderBy('id', 'desc').limit(page.limit);
  if (isCursor(page)) {
    const cursor = await db
      .selectFrom('orders')
      .select(['created_at', 'array_position', 'id'])
      .where('account_id', '=', accountId)
      .where('id', '=', page.after)
      .executeTakeFirst();
    if (!cursor) return { rows: undefined, total: 0 };
    rowsQuery = rowsQuery.where((eb) =>
      eb(eb.refTuple('created_at', 'array_position', 'id'), '<', eb.tuple(cursor.created_at, cursor.array_position, cursor.id)),
    );
  } else {
    rowsQuery = rowsQuery.offset(pageOffset(page));
  }
  // Without a filter the count is kept on the account row: no scan over a million orders.
  const countQuery = hasFilter(filter)
    ? query.select((eb) => eb.fn.countAll().as('total'))
    : db.selectFrom('accounts').select('orders_placed as total').where('id', '=', accountId);
  const [rows, count] = await Promise.all([rowsQuery.execute(), countQuery.executeTakeFirst()]);
  return { rows: rows.map(toListEntry), total: count ? num(count.total as number | bigint) : 0 };
}

export async function findOrder(db: Db | Tx, accountId: string, id: string): Promise<Order | undefined> {
  const row = await db.selectFrom('orders').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row && toOrder(row);
}

export async function findOrderById(db: Db | Tx, id: string): Promise<Order | undefined> {
  const row = await db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toOrder(row);
}
