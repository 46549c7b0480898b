import { AppError } from '../domain/errors.js';
import type { Order } from '../domain/order.js';
import { REVIEW_AFTER_MS } from '../domain/retry-schedule.js';
import { isOpenAttempt, type UpstreamAttempt } from '../domain/upstream-attempt.js';
import { appendLedgerEntries } from '../store/ledger.repository.js';
import { settleOpenOrder } from '../store/order-queue.repository.js';
import { findOrderById, refundOrder } from '../store/orders.repository.js';
import { attemptsOf, insertResolution, ordersAwaitingAnswer, updateAttempt } from '../store/upstream-attempts.repository.js';
import type { Deps } from './deps.js';
import { afterSettling } from './fulfil-orders.js';
import { enqueueOrderEvent } from './webhook-events.js';

export interface OrderUnderReview {
  readonly order: Order;
  /** The attempt no upstream has answered for. */
  readonly attempt: UpstreamAttempt;
}

/**
 * Orders whose upstream has not given a final answer for `REVIEW_AFTER_MS` (48 hours) after the
 * attempt was sent. They are still looked up every hour; a person may settle them with `resolveOrder`
 * after checking with the provider.
 */
export async function ordersForReview(deps: Deps): Promise<OrderUnderReview[]> {
  return ordersAwaitingAnswer(deps.store.db, deps.clock.now() - REVIEW_AFTER_MS);
}

/**
 * A person's settlement of an open order, in one transaction: the order SUCCESS, or FAILED with its
 * deduction refunded; its open attempt closed with the note; the customer's webhook event; and the
 * resolution kept in `order_resolutions` (the audit trail: what, why, when, and from which status).
 * A worker that answers later finds the order settled and records nothing.
 */
export async function resolveOrder(deps: Deps, id: string, outcome: 'SUCCESS' | 'FAILED', note: string, options: { force?: boolean } = {}): Promise<Order> {
  if (note.trim() === '') throw new AppError('validation_failed', 'A resolution needs a note saying why (what the provider said).');
  const now = deps.clock.now();
  const resolved = await deps.store.transact(async (tx) => {
    const current = await findOrderById(tx, id);
    if (!current || (current.status !== 'PENDING' && current.status !== 'PROCESSING')) return undefined;
    const open = (await attemptsOf(tx, id)).find(isOpenAttempt);
    // A worker holding a live lease may be sending right now: never settle under its feet.
    if (current.claimedBy !== null && current.nextAttemptAt > now) {
      throw new AppError('order_in_progress', `Order ${id} is with a worker right now; try again in a few seconds.`);
    }
    // Only an order awaiting review, unless a person who checked with the provider insists.
    if (!options.force && !(open && open.createdAt <= now - REVIEW_AFTER_MS)) {
      throw new AppError('order_in_progress', `Order ${id} is not awaiting review (no attempt unanswered for 48 hours); after checking with the provider, --force resolves it anyway.`);
    }
    const after = await settleOpenOrder(tx, id, {
      status: outcome,
      failureReason: outcome === 'FAILED' ? 'resolved_failed' : null,
      operatorReference: outcome === 'SUCCESS' ? (open?.operatorReference ?? open?.upstreamId ?? 'RESOLVED-BY-HAND') : null,
      now,
    });
    if (!after) return undefined;
    await insertResolution(tx, { orderId: id, outcome, note, previousStatus: current.status, at: now });
    if (open) await updateAttempt(tx, open.reference, { state: outcome === 'SUCCESS' ? 'succeeded' : 'failed', detail: `resolved by hand: ${note}`.slice(0, 500), now });
    if (outcome === 'FAILED') {
      const balanceAfter = await refundOrder(tx, after);
      await appendLedgerEntries(tx, [{ accountId: after.accountId, kind: 'refund', amount: after.deduction, balanceAfter, orderId: id, createdAt: now }]);
    }
    await enqueueOrderEvent(tx, deps.renderEvent, after, now);
    return after;
  });
  if (!resolved) {
    const order = await findOrderById(deps.store.db, id);
    if (!order) throw new AppError('not_found', `No order ${id}.`);
    throw new AppError('order_settled', `Order ${id} is already ${order.status}; only an open order can be resolved.`);
  }
  afterSettling(deps, resolved);
  return resolved;
}
