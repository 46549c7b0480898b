import type { Selectable } from 'kysely';
import type { AttemptState, UpstreamAttempt, UpstreamCost } from '../domain/upstream-attempt.js';
import type { Order } from '../domain/order.js';
import { big, num } from './convert.js';
import { toOrder } from './orders.repository.js';
import type { Db, Tx } from './database.js';
import type { UpstreamAttemptsTable } from './schema.js';

const toAttempt = (r: Selectable<UpstreamAttemptsTable>): UpstreamAttempt => ({
  reference: r.reference,
  orderId: r.order_id,
  number: num(r.number),
  connector: r.connector,
  state: r.state as AttemptState,
  upstreamId: r.upstream_id,
  operatorReference: r.operator_reference,
  cost: r.cost === null || r.cost_currency === null ? null : { amount: big(r.cost), currency: r.cost_currency },
  detail: r.detail,
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
});

/** Records an attempt before its request leaves; the database refuses a second open attempt of an order. */
export async function insertAttempt(db: Db | Tx, attempt: UpstreamAttempt): Promise<void> {
  await db
    .insertInto('upstream_attempts')
    .values({
      reference: attempt.reference,
      order_id: attempt.orderId,
      number: attempt.number,
      connector: attempt.connector,
      state: attempt.state,
      upstream_id: attempt.upstreamId,
      operator_reference: attempt.operatorReference,
      cost: attempt.cost?.amount ?? null,
      cost_currency: attempt.cost?.currency ?? null,
      detail: attempt.detail,
      created_at: attempt.createdAt,
      updated_at: attempt.updatedAt,
    })
    .execute();
}

/** What an answer changes on an attempt: its state, and whatever the upstream told us (kept when silent). */
export interface AttemptChange {
  readonly state: AttemptState;
  readonly upstreamId?: string;
  readonly operatorReference?: string;
  readonly cost?: UpstreamCost;
  readonly detail?: string | null;
  readonly now: number;
}

export async function updateAttempt(db: Db | Tx, reference: string, change: AttemptChange): Promise<void> {
  await db
    .updateTable('upstream_attempts')
    .set({
      state: change.state,
      updated_at: change.now,
      ...(change.upstreamId === undefined ? {} : { upstream_id: change.upstreamId }),
      ...(change.operatorReference === undefined ? {} : { operator_reference: change.operatorReference }),
      ...(change.cost === undefined ? {} : { cost: change.cost.amount, cost_currency: change.cost.currency }),
      ...(change.detail === undefined ? {} : { detail: change.detail }),
    })
    .where('reference', '=', reference)
    .execute();
}

/** Every attempt of an order, first to last. */
export async function attemptsOf(db: Db | Tx, orderId: string): Promise<UpstreamAttempt[]> {
  const rows = await db.selectFrom('upstream_attempts').selectAll().where('order_id', '=', orderId).orderBy('number').execute();
  return rows.map(toAttempt);
}

/** Open orders whose open attempt is older than `before` (the upstream has not answered for them), with it. */
export async function ordersAwaitingAnswer(db: Db, before: number): Promise<Array<{ order: Order; attempt: UpstreamAttempt }>> {
  const open = await db
    .selectFrom('upstream_attempts')
    .innerJoin('orders', 'orders.id', 'upstream_attempts.order_id')
    .selectAll('upstream_attempts')
    .where('upstream_attempts.state', 'in', ['sending', 'open'])
    .where('upstream_attempts.created_at', '<', before)
    .where('orders.status', 'in', ['PENDING', 'PROCESSING'])
    .orderBy('upstream_attempts.created_at')
    .execute();
  if (open.length === 0) return [];
  // The orders in one read, not one each.
  const orders = await db.selectFrom('orders').selectAll().where('id', 'in', open.map((r) => r.order_id)).execute();
  const byId = new Map(orders.map((r) => [r.id, toOrder(r)]));
  return open.flatMap((r) => {
    const order = byId.get(r.order_id);
    return order ? [{ order, attempt: toAttempt(r) }] : [];
  });
}

export async function insertResolution(
  tx: Tx,
  resolution: { orderId: string; outcome: 'SUCCESS' | 'FAILED'; note: string; previousStatus: string; at: number },
): Promise<void> {
  await tx
    .insertInto('order_resolutions')
    .values({ order_id: resolution.orderId, outcome: resolution.outcome, note: resolution.note, previous_status: resolution.previousStatus, resolved_at: resolution.at })
    .execute();
}

/** One connector's attempts made in a period, each with its order's amount and status. */
export async function attemptsWithOrders(
  db: Db,
  connector: string,
  period: { from: number; to: number },
): Promise<Array<{ attempt: UpstreamAttempt; amount: bigint; orderStatus: string }>> {
  const rows = await db
    .selectFrom('upstream_attempts')
    .innerJoin('orders', 'orders.id', 'upstream_attempts.order_id')
    .selectAll('upstream_attempts')
    .select(['orders.amount as order_amount', 'orders.status as order_status'])
    .where('upstream_attempts.connector', '=', connector)
    .where('upstream_attempts.created_at', '>=', period.from)
    .where('upstream_attempts.created_at', '<', period.to)
    .orderBy('upstream_attempts.created_at')
    .execute();
  return rows.map((r) => ({ attempt: toAttempt(r), amount: big(r.order_amount), orderStatus: r.order_status }));
}

/** The attempt with this reference, or with this upstream id at this connector. */
export async function findAttempt(db: Db, connector: string, key: { reference?: string; upstreamId?: string }): Promise<UpstreamAttempt | undefined> {
  let query = db.selectFrom('upstream_attempts').selectAll().where('connector', '=', connector);
  if (key.reference !== undefined) query = query.where('reference', '=', key.reference);
  else if (key.upstreamId !== undefined) query = query.where('upstream_id', '=', key.upstreamId);
  else return undefined;
  const row = await query.executeTakeFirst();
  return row && toAttempt(row);
}
