import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.js';
import type { DeliveryAttempt, DeliveryStatus, WebhookEvent, WebhookEventType } from '../domain/webhook-event.js';
import { num } from './convert.js';
import type { Db, Tx } from './database.js';
import { prepared } from './prepared.js';
import { dialectOf } from './dialect.js';
import type { ClaimWindow } from './claim-window.js';
import type { WebhookAttemptsTable, WebhookEndpointsTable, WebhookEventsTable } from './schema.js';

const endpoint = (r: Selectable<WebhookEndpointsTable>): WebhookEndpoint => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  url: r.url,
  secret: r.secret,
  disabledAt: r.disabled_at === null ? null : num(r.disabled_at),
  disabledReason: r.disabled_reason,
  createdAt: num(r.created_at),
  previousSecret: r.previous_secret,
  previousSecretUntil: r.previous_secret_until === null ? null : num(r.previous_secret_until),
});

const event = (r: Selectable<WebhookEventsTable>): WebhookEvent => ({
  id: r.id,
  accountId: r.account_id,
  endpointId: r.endpoint_id,
  orderId: r.order_id,
  type: r.type as WebhookEventType,
  payload: r.payload,
  status: r.status as DeliveryStatus,
  attempts: num(r.attempts),
  nextAttemptAt: num(r.next_attempt_at),
  claimedBy: r.claimed_by,
  lastStatusCode: r.last_status_code === null ? null : num(r.last_status_code),
  lastError: r.last_error,
  createdAt: num(r.created_at),
  deliveredAt: r.delivered_at === null ? null : num(r.delivered_at),
});

export async function insertEndpoint(db: Db, e: WebhookEndpoint): Promise<void> {
  await db
    .insertInto('webhook_endpoints')
    .values({
      id: e.id,
      account_id: e.accountId,
      name: e.name,
      url: e.url,
      secret: e.secret,
      disabled_at: e.disabledAt,
      disabled_reason: e.disabledReason,
      created_at: e.createdAt,
    })
    .execute();
}

const endpointByName = prepared((db: Db, p: { accountId: string; name: string }) =>
  db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', p.accountId).where('name', '=', p.name),
);

export async function findEndpointByName(db: Db | Tx, accountId: string, name: string): Promise<WebhookEndpoint | undefined> {
  const [row] = await endpointByName.execute(db, { accountId, name });
  return row && endpoint(row);
}

export async function findEndpoint(db: Db, id: string): Promise<WebhookEndpoint | undefined> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  return row && endpoint(row);
}

export async function listEndpoints(db: Db, accountId: string): Promise<WebhookEndpoint[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .execute();
  return rows.map(endpoint);
}

export async function setEndpointDisabled(db: Db | Tx, id: string, disabled: { at: number; reason: string } | null): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: disabled?.at ?? null, disabled_reason: disabled?.reason ?? null })
    .where('id', '=', id)
    .execute();
}

/** Written in the same transaction as the order's final status: the outbox that makes delivery lossless. */
export async function insertEvent(tx: Tx, e: Pick<WebhookEvent, 'id' | 'accountId' | 'endpointId' | 'orderId' | 'type' | 'payload' | 'createdAt'>): Promise<void> {
  await tx
    .insertInto('webhook_events')
    .values({
      id: e.id,
      account_id: e.accountId,
      endpoint_id: e.endpointId,
      order_id: e.orderId,
      type: e.type,
      payload: e.payload,
      status: 'pending',
      next_attempt_at: e.createdAt,
      created_at: e.createdAt,
    })
    .execute();
}

/**
 * The delivery queue condition, its constant written out rather than bound: SQLite uses the partial
 * index `webhook_events_queue` only when a query names the index's own constant (with `status = ?` it
 * reads every event ever delivered on each claim).
 */
const isPending = sql<boolean>`status = 'pending'`;

/** Deliveries claimed, and how many of them were taken over from a worker whose lease ran out. */
export interface ClaimedEvents {
  readonly events: WebhookEvent[];
  readonly takenOver: number;
}

/** Claims due deliveries for one worker; on PostgreSQL rows being claimed elsewhere are skipped. */
export async function claimDueEvents(tx: Tx, claim: ClaimWindow): Promise<ClaimedEvents> {
  let due = tx
    .selectFrom('webhook_events')
    .select(['id', 'claimed_by'])
    .where(isPending)
    .where('next_attempt_at', '<=', claim.now)
    .orderBy('next_attempt_at')
    .limit(claim.limit);
  if (dialectOf(tx) === 'postgres') due = due.forUpdate().skipLocked();
  const found = await due.execute();
  if (found.length === 0) return { events: [], takenOver: 0 };
  const ids = found.map((r) => r.id);
  const rows = await tx
    .updateTable('webhook_events')
    .set((eb) => ({ claimed_by: claim.workerId, next_attempt_at: claim.claimUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', ids)
    .returningAll()
    .execute();
  // A settled attempt clears the claim: a due event that still names a worker was that worker's when
  // its lease ran out.
  return { events: rows.map(event), takenOver: found.filter((r) => r.claimed_by !== null).length };
}

/** Records one attempt and its consequence, only while this worker still holds the claim. */
export async function settleEventAttempt(
  tx: Tx,
  eventId: string,
  workerId: string,
  attempt: DeliveryAttempt,
  next: { status: DeliveryStatus; nextAttemptAt: number; deliveredAt: number | null },
): Promise<boolean> {
  const result = await tx
    .updateTable('webhook_events')
    .set({
      status: next.status,
      next_attempt_at: next.nextAttemptAt,
      claimed_by: null,
      last_status_code: attempt.statusCode,
      last_error: attempt.error,
      delivered_at: next.deliveredAt,
    })
    .where('id', '=', eventId)
    .where('claimed_by', '=', workerId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await tx
    .insertInto('webhook_attempts')
    .values({
      event_id: eventId,
      attempted_at: attempt.attemptedAt,
      status_code: attempt.statusCode,
      latency_ms: attempt.latencyMs,
      error: attempt.error,
      outcome: attempt.outcome,
    })
    .execute();
  return true;
}

/** What a delivery listing may be narrowed to. */
export interface EventFilter {
  readonly status?: DeliveryStatus;
  readonly orderId?: string;
}

export async function listEvents(db: Db, accountId: string, filter: EventFilter & { limit: number; offset?: number }): Promise<WebhookEvent[]> {
  let query = db.selectFrom('webhook_events').selectAll().where('account_id', '=', accountId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.orderId !== undefined) query = query.where('order_id', '=', filter.orderId);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).offset(filter.offset ?? 0).execute();
  return rows.map(event);
}

export async function countEvents(db: Db, accountId: string, filter: EventFilter = {}): Promise<number> {
  let query = db.selectFrom('webhook_events').select((eb) => eb.fn.countAll<number | bigint | string>().as('n')).where('account_id', '=', accountId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.orderId !== undefined) query = query.where('order_id', '=', filter.orderId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

export async function findEvent(db: Db, id: string): Promise<WebhookEvent | undefined> {
  const row = await db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();
  return row && event(row);
}

export async function eventsOfOrder(db: Db, orderId: string): Promise<WebhookEvent[]> {
  return (await db.selectFrom('webhook_events').selectAll().where('order_id', '=', orderId).execute()).map(event);
}

const attempt = (r: Selectable<WebhookAttemptsTable>): DeliveryAttempt => ({
  attemptedAt: num(r.attempted_at),
  statusCode: r.status_code === null ? null : num(r.status_code),
  latencyMs: num(r.latency_ms),
  error: r.error,
  outcome: r.outcome,
});

export async function listAttempts(db: Db, eventId: string): Promise<DeliveryAttempt[]> {
  return (await listAttemptsOf(db, [eventId])).get(eventId) ?? [];
}

/** The attempts of many deliveries in one query, in order, by delivery id. */
export async function listAttemptsOf(db: Db, eventIds: readonly string[]): Promise<Map<string, DeliveryAttempt[]>> {
  const byEvent = new Map<string, DeliveryAttempt[]>();
  if (eventIds.length === 0) return byEvent;
  const rows = await db.selectFrom('webhook_attempts').selectAll().where('event_id', 'in', [...eventIds]).orderBy('id').execute();
  for (const row of rows) byEvent.set(row.event_id, [...(byEvent.get(row.event_id) ?? []), attempt(row)]);
  return byEvent;
}

/** Puts a delivery back in the queue, due now, with a fresh retry schedule (its attempts stay on record). */
export async function requeueEvent(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_events')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, claimed_by: null })
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'delivered'])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function nextEventDueAt(db: Db): Promise<number | undefined> {
  const row = await db
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.min('next_attempt_at').as('due'))
    .where(isPending)
    .executeTakeFirst();
  return row?.due === null || row?.due === undefined ? undefined : num(row.due as number | bigint);
}

/**
 * Deliveries still to be sent and those given up, each counted on its own partial index (the
 * delivered ones, nearly all of them, are never read). The constants are written out for SQLite's sake.
 */
export async function countDeliveries(db: Db): Promise<{ pending: number; failed: number }> {
  const count = (condition: RawBuilder<boolean>) =>
    db.selectFrom('webhook_events').select((eb) => eb.fn.countAll<number | bigint | string>().as('count')).where(condition);
  const row = await db
    .selectNoFrom([count(isPending).as('pending'), count(sql<boolean>`status = 'failed'`).as('failed')])
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), failed: Number(row.failed) };
}

/** Replaces an endpoint's secret; the one it replaces keeps signing until `overlapUntil`. */
export async function rotateEndpointSecret(db: Db, id: string, secret: string, overlapUntil: number): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({ previous_secret: eb.ref('secret'), previous_secret_until: overlapUntil, secret }))
    .where('id', '=', id)
    .execute();
}

/** Removes an endpoint from use, keeping its row (and its deliveries' history) under a name no one can give. */
export async function removeEndpoint(db: Db, id: string, keptName: string, at: number): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ name: keptName, deleted_at: at, disabled_at: at, disabled_reason: 'removed' })
    .where('id', '=', id)
    .execute();
}
