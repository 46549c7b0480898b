import { sql } from 'kysely';
import type { Order } from '../domain/order.js';
import type { ClaimWindow } from './claim-window.js';
import { num } from './convert.js';
import type { Db, Tx } from './database.js';
import { dialectOf } from './dialect.js';
import { toOrder } from './orders.repository.js';

// The workers' queue of orders: claiming due ones, settling a claim, handing claims back, and when the
// next one is due. Every query here reads the partial index `orders_queue` (see migration 0006).

/**
 * The workers' queue condition, with its constants written out rather than bound: SQLite uses the
 * partial index `orders_queue` only when a query names the index's own constants (with
 * `status in (?, ?)` it reads the whole table, settled orders and all, on every claim).
 */
const isOpen = sql<boolean>`status in ('PENDING', 'PROCESSING')`;

/** Orders claimed, and how many of them were taken over from a worker whose lease ran out. */
export interface ClaimedOrders {
  readonly orders: Order[];
  readonly takenOver: number;
}

/**
 * Claims up to `limit` due orders for one worker: PENDING orders whose attempt is due, and PROCESSING
 * orders whose claim ran out (their worker died). Fast orders first. On PostgreSQL, rows another worker
 * is claiming are skipped rather than waited for.
 */
export async function claimDueOrders(tx: Tx, claim: ClaimWindow): Promise<ClaimedOrders> {
  let due = tx
    .selectFrom('orders')
    .select(['id', 'status', 'claimed_by'])
    .where(isOpen)
    .where('next_attempt_at', '<=', claim.now)
    .orderBy('fast', 'desc')
    .orderBy('next_attempt_at')
    .limit(claim.limit);
  if (dialectOf(tx) === 'postgres') due = due.forUpdate().skipLocked();
  const found = await due.execute();
  if (found.length === 0) return { orders: [], takenOver: 0 };
  const ids = found.map((r) => r.id);
  const rows = await tx
    .updateTable('orders')
    .set((eb) => ({
      status: 'PROCESSING',
      claimed_by: claim.workerId,
      next_attempt_at: claim.claimUntil,
      attempts: eb('attempts', '+', 1),
      updated_at: claim.now,
    }))
    .where('id', 'in', ids)
    .returningAll()
    .execute();
  const orders = rows.map(toOrder).sort((a, b) => Number(b.fast) - Number(a.fast) || a.createdAt - b.createdAt);
  // A PROCESSING order without a claim is one awaiting an upstream's answer, due for its lookup.
  return { orders, takenOver: found.filter((r) => r.status === 'PROCESSING' && r.claimed_by !== null).length };
}

/**
 * Moves a claimed order to its outcome, only while this worker still holds the claim: a worker whose
 * claim was taken over cannot settle the order a second time. Returns the settled order, or undefined.
 * `PROCESSING` hands the claim back with the order still at an upstream whose answer we await: it is
 * looked up again at `nextAttemptAt`.
 */
export async function settleClaimedOrder(
  tx: Tx,
  id: string,
  workerId: string,
  outcome:
    | { status: 'SUCCESS'; operatorReference: string; now: number }
    | { status: 'FAILED'; failureReason: string; now: number }
    | { status: 'PENDING'; nextAttemptAt: number; failureReason: string; now: number }
    | { status: 'PROCESSING'; nextAttemptAt: number; now: number },
): Promise<Order | undefined> {
  const row = await tx
    .updateTable('orders')
    .set({
      status: outcome.status,
      claimed_by: null,
      updated_at: outcome.now,
      ...(outcome.status === 'SUCCESS' ? { operator_reference: outcome.operatorReference, failure_reason: null } : {}),
      ...(outcome.status === 'FAILED' ? { failure_reason: outcome.failureReason } : {}),
      ...(outcome.status === 'PENDING' ? { next_attempt_at: outcome.nextAttemptAt, failure_reason: outcome.failureReason } : {}),
      ...(outcome.status === 'PROCESSING' ? { next_attempt_at: outcome.nextAttemptAt } : {}),
    })
    .where('id', '=', id)
    .where('status', '=', 'PROCESSING')
    .where('claimed_by', '=', workerId)
    .returningAll()
    .executeTakeFirst();
  return row && toOrder(row);
}

/**
 * Extends this worker's claims on orders it is still working on (the heartbeat of a live worker), so
 * that only a dead worker's claims run out. Returns how many it still held.
 */
export async function renewClaims(db: Db | Tx, workerId: string, ids: readonly string[], claimUntil: number): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('orders')
    .set({ next_attempt_at: claimUntil })
    .where('id', 'in', [...ids])
    .where('status', '=', 'PROCESSING')
    .where('claimed_by', '=', workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Hands back claims a stopping worker has not started on, so others take them at once. An order with
 * an attempt awaiting an upstream's answer stays PROCESSING (its status never goes backwards).
 */
export async function releaseClaims(db: Db, workerId: string, ids: readonly string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('orders')
    .set((eb) => ({
      status: eb
        .case()
        .when(
          eb.exists(
            eb
              .selectFrom('upstream_attempts')
              .select('upstream_attempts.reference')
              .whereRef('upstream_attempts.order_id', '=', 'orders.id')
              .where('upstream_attempts.state', 'in', ['sending', 'open']),
          ),
        )
        .then('PROCESSING')
        .else('PENDING')
        .end(),
      claimed_by: null,
      next_attempt_at: now,
      attempts: eb('attempts', '-', 1),
      updated_at: now,
    }))
    .where('id', 'in', [...ids])
    .where('status', '=', 'PROCESSING')
    .where('claimed_by', '=', workerId)
    .execute();
}

/** The earliest moment an open order becomes due, so an idle worker knows how long it may sleep. */
export async function nextDueAt(db: Db): Promise<number | undefined> {
  // One minimum per value of `fast`: each is the first entry of its part of the queue index, where a
  // minimum over both parts would read all of it.
  const earliest = (fast: 0 | 1) =>
    db.selectFrom('orders').select((eb) => eb.fn.min('next_attempt_at').as('due')).where(isOpen).where('fast', '=', fast);
  const row = await db.selectNoFrom([earliest(1).as('fast'), earliest(0).as('normal')]).executeTakeFirstOrThrow();
  const due = [row.fast, row.normal].filter((d) => d !== null && d !== undefined).map((d) => num(d as number | bigint));
  return due.length === 0 ? undefined : Math.min(...due);
}


/** Open orders by status, counted on the queue index (settled orders are never read). */
export async function countOpenOrders(db: Db): Promise<{ PENDING: number; PROCESSING: number }> {
  const rows = await db
    .selectFrom('orders')
    .select((eb) => ['status', eb.fn.countAll<number | bigint | string>().as('count')])
    .where(isOpen)
    .groupBy('status')
    .execute();
  const counts = { PENDING: 0, PROCESSING: 0 };
  for (const row of rows) counts[row.status as keyof typeof counts] = Number(row.count);
  return counts;
}

/**
 * Ends an open order by a person's decision (`topup orders resolve`), whoever holds it: a worker that
 * answers later finds it settled and records nothing. Returns the settled order, or undefined when it was not open.
 */
export async function settleOpenOrder(
  tx: Tx,
  id: string,
  outcome: { status: 'SUCCESS' | 'FAILED'; failureReason: string | null; operatorReference: string | null; now: number },
): Promise<Order | undefined> {
  const after = await tx
    .updateTable('orders')
    .set({ status: outcome.status, claimed_by: null, failure_reason: outcome.failureReason, operator_reference: outcome.operatorReference, updated_at: outcome.now })
    .where('id', '=', id)
    .where(isOpen)
    .returningAll()
    .executeTakeFirst();
  return after && toOrder(after);
}

/** Makes an order awaiting an upstream's answer due for its lookup now; false when it is not awaiting one. */
export async function lookUpNow(db: Db | Tx, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ next_attempt_at: now })
    .where('id', '=', id)
    .where('status', '=', 'PROCESSING')
    .where('claimed_by', 'is', null)
    .where('next_attempt_at', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether this worker still holds its claim on the order (read inside the unit that acts on it). */
export async function holdsClaim(tx: Tx, id: string, workerId: string): Promise<boolean> {
  const row = await tx.selectFrom('orders').select('id').where('id', '=', id).where('status', '=', 'PROCESSING').where('claimed_by', '=', workerId).executeTakeFirst();
  return row !== undefined;
}
