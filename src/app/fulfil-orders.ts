import type { Order } from '../domain/order.js';
import { decideLookup, decideRetry } from '../domain/retry-schedule.js';
import { appendLedgerEntries } from '../store/ledger.repository.js';
import { claimDueOrders, nextDueAt, releaseClaims, renewClaims, settleClaimedOrder } from '../store/order-queue.repository.js';
import { refundOrder } from '../store/orders.repository.js';
import type { Deps } from './deps.js';
import { enqueueOrderEvent } from './webhook-events.js';

/**
 * What an operator said about one order, as the worker hands it over to be recorded. `retry` is the
 * operator's own answer that it did not perform the top-up now (unavailable, busy); `unknown` means no
 * answer came (a timeout, a dropped connection, an error after the request left us): the top-up may
 * have happened, so it is never a failure, and the next attempt asks the operator first.
 */
export type OperatorVerdict =
  | { readonly kind: 'success'; readonly reference: string }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'retry'; readonly reason: string; readonly retryAfterMs?: number }
  | { readonly kind: 'unknown'; readonly reason: string };

export async function claimOrders(deps: Deps, workerId: string, limit: number, claimTtlMs: number): Promise<Order[]> {
  const now = deps.clock.now();
  const claimed = await deps.store.transact((tx) => claimDueOrders(tx, { now, limit, workerId, claimUntil: now + claimTtlMs }));
  deps.telemetry.claimsTakenOver('orders', claimed.takenOver);
  return claimed.orders;
}

/** The heartbeat: keeps this worker's claims on the orders it is still working on for another lease. */
export function renewOrderClaims(deps: Deps, workerId: string, ids: readonly string[], claimTtlMs: number): Promise<number> {
  return deps.store.write((db) => renewClaims(db, workerId, ids, deps.clock.now() + claimTtlMs));
}

export function releaseOrders(deps: Deps, workerId: string, ids: readonly string[]): Promise<void> {
  return releaseClaims(deps.store.db, workerId, ids, deps.clock.now());
}

export function whenNextDue(deps: Deps): Promise<number | undefined> {
  return nextDueAt(deps.store.db);
}

/**
 * Records the operator's answer for a claimed order, in one transaction: SUCCESS; FAILED with the
 * deduction refunded (a new ledger entry, the totals reduced); or back to PENDING for a later attempt.
 * Only the operator's own answers end an order: its refusals fail it once the retries run out, while an
 * unknown outcome stays open for lookup however long that takes. Returns the order as settled, or undefined when this
 * worker's claim had been taken over (the other worker records the outcome instead).
 */
export async function recordVerdict(deps: Deps, order: Order, workerId: string, verdict: OperatorVerdict): Promise<Order | undefined> {
  const now = deps.clock.now();
  const decision =
    verdict.kind === 'retry' ? decideRetry(order.attempts, verdict.retryAfterMs) : verdict.kind === 'unknown' ? decideLookup(order.attempts) : undefined;
  const settled = await deps.store.transact(async (tx) => {
    if (verdict.kind === 'success') {
      const succeeded = await settleClaimedOrder(tx, order.id, workerId, { status: 'SUCCESS', operatorReference: verdict.reference, now });
      if (succeeded) await enqueueOrderEvent(tx, deps.renderEvent, succeeded, now);
      return succeeded;
    }
    if (decision?.outcome === 'retry') {
      return settleClaimedOrder(tx, order.id, workerId, { status: 'PENDING', nextAttemptAt: now + decision.delayMs, failureReason: verdict.reason, now });
    }
    const failed = await settleClaimedOrder(tx, order.id, workerId, { status: 'FAILED', failureReason: verdict.reason, now });
    if (!failed) return undefined;
    const balanceAfter = await refundOrder(tx, failed);
    await appendLedgerEntries(tx, [
      { accountId: failed.accountId, kind: 'refund', amount: failed.deduction, balanceAfter, orderId: failed.id, createdAt: now },
    ]);
    await enqueueOrderEvent(tx, deps.renderEvent, failed, now);
    return failed;
  });
  if (settled && (settled.status === 'SUCCESS' || settled.status === 'FAILED')) {
    deps.telemetry.orderSettled(settled.status);
    if (settled.webhookName !== null) deps.signal.notify('events');
  }
  return settled;
}
