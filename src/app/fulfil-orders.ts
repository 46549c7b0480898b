import type { Order } from '../domain/order.js';
import { decideFloatWait, decideLookup, decideRetry } from '../domain/retry-schedule.js';
import { attemptReference, type UpstreamAttempt } from '../domain/upstream-attempt.js';
import { appendLedgerEntries } from '../store/ledger.repository.js';
import { claimDueOrders, holdsClaim, nextDueAt, releaseClaims, renewClaims, settleClaimedOrder } from '../store/order-queue.repository.js';
import { findOrderById, refundOrder } from '../store/orders.repository.js';
import type { Tx } from '../store/database.js';
import { insertAttempt, updateAttempt } from '../store/upstream-attempts.repository.js';
import { clearOutOfFloat, markOutOfFloat } from '../store/upstream-balances.repository.js';
import type { Deps } from './deps.js';
import type { UpstreamAnswer } from './upstream.js';
import { enqueueOrderEvent } from './webhook-events.js';

export function claimOrders(deps: Deps, workerId: string, limit: number, claimTtlMs: number): Promise<Order[]> {
  const now = deps.clock.now();
  return deps.store
    .transact((tx) => claimDueOrders(tx, { now, limit, workerId, claimUntil: now + claimTtlMs }))
    .then((claimed) => {
      deps.telemetry.claimsTakenOver('orders', claimed.takenOver);
      return claimed.orders;
    });
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
 * Starts the n-th attempt of a claimed order: written (state `sending`) and committed before its
 * request leaves, so that whoever handles the order next knows to look it up rather than send anew.
 * Refused (undefined) when this worker no longer holds the order.
 */
export async function startAttempt(deps: Deps, order: Order, workerId: string, connector: string, number: number): Promise<UpstreamAttempt | undefined> {
  const now = deps.clock.now();
  const attempt: UpstreamAttempt = {
    reference: attemptReference(order.id, number),
    orderId: order.id,
    number,
    connector,
    state: 'sending',
    upstreamId: null,
    operatorReference: null,
    cost: null,
    detail: null,
    createdAt: now,
    updatedAt: now,
  };
  return deps.store.transact(async (tx) => {
    const held = await findOrderById(tx, order.id);
    if (held?.status !== 'PROCESSING' || held.claimedBy !== workerId) return undefined;
    await insertAttempt(tx, attempt);
    return attempt;
  });
}

/**
 * What recording an answer led to: the order settled (or back in the queue: `order`), the claim lost to
 * another worker (`lost`), or — the attempt having provably not topped up the phone — the next upstream
 * may try (`next`).
 */
export type AnswerOutcome = { readonly kind: 'order'; readonly order: Order } | { readonly kind: 'lost' } | { readonly kind: 'next' };

/**
 * Records an upstream's answer to an attempt of a claimed order, in one transaction with what it does
 * to the order: SUCCESS; FAILED with the deduction refunded (a ledger entry, the totals reduced), only
 * on a final failure or when no other upstream is left to try; PENDING again for a later attempt; or
 * PROCESSING, awaiting the upstream's answer, asked about on the lookup schedule (an unknown outcome
 * is never a failure). `lastCandidate` says whether another upstream could still try this order now.
 */
export async function recordAnswer(
  deps: Deps,
  order: Order,
  workerId: string,
  attempt: UpstreamAttempt,
  answer: UpstreamAnswer,
  lastCandidate: boolean,
  upstream: { readonly keepsFloat: boolean; readonly round?: number } = { keepsFloat: false },
): Promise<AnswerOutcome> {
  // Refusals are counted in rounds of attempts (this upstream's attempts at the order), not in claims:
  // an asynchronous upstream takes several claims (send, lookups) for one attempt.
  const round = upstream.round ?? order.attempts;
  const now = deps.clock.now();
  let floatChange: 'out' | 'back' | undefined;
  const outcome = await deps.store.transact(async (tx): Promise<AnswerOutcome> => {
    floatChange = undefined;
    // An upstream that accepts an order has credit again: orders waiting for it resume on their own.
    if (upstream.keepsFloat && (answer.kind === 'success' || answer.kind === 'pending') && (await clearOutOfFloat(tx, attempt.connector))) floatChange = 'back';
    const settle = async (change: Parameters<typeof settleClaimedOrder>[3]) => {
      const settled = await settleClaimedOrder(tx, order.id, workerId, change);
      return settled ? ({ kind: 'order', order: settled } as const) : ({ kind: 'lost' } as const);
    };
    switch (answer.kind) {
      case 'success': {
        const operatorReference = answer.operatorReference ?? answer.upstreamId ?? attempt.reference;
        const result = await settle({ status: 'SUCCESS', operatorReference, now });
        if (result.kind === 'lost') return result;
        await updateAttempt(tx, attempt.reference, { state: 'succeeded', upstreamId: answer.upstreamId, cost: answer.cost, operatorReference, detail: null, now });
        await enqueueOrderEvent(tx, deps.renderEvent, result.order, now);
        return result;
      }
      case 'pending':
      case 'unknown': {
        const delay = decideLookup(now - attempt.createdAt);
        const result = await settle({ status: 'PROCESSING', nextAttemptAt: now + delay.delayMs, now });
        if (result.kind === 'lost') return result;
        const detail = answer.kind === 'unknown' ? answer.reason : (answer.reason ?? null);
        const told = answer.kind === 'pending' ? { upstreamId: answer.upstreamId, cost: answer.cost } : {};
        await updateAttempt(tx, attempt.reference, { ...told, state: 'open', detail, now });
        return result;
      }
      case 'failed': {
        if (!answer.final && !lastCandidate) {
          // Nothing below settles the order, so the claim is checked first: a worker that lost it
          // (to a takeover or a person's resolution) changes nothing.
          if (!(await holdsClaim(tx, order.id, workerId))) return { kind: 'lost' };
          await updateAttempt(tx, attempt.reference, { state: 'failed', upstreamId: answer.upstreamId, detail: answer.reason, now });
          return { kind: 'next' };
        }
        const result = await failAndRefund(tx, deps, order, workerId, answer.reason, now);
        if (result.kind === 'order') await updateAttempt(tx, attempt.reference, { state: 'failed', upstreamId: answer.upstreamId, detail: answer.reason, now });
        return result;
      }
      case 'retry': {
        if (!(await holdsClaim(tx, order.id, workerId))) return { kind: 'lost' };
        await updateAttempt(tx, attempt.reference, { state: 'not_performed', detail: answer.reason, now });
        if (answer.outOfFloat && (await markOutOfFloat(tx, attempt.connector, now))) floatChange = 'out';
        if (!lastCandidate) return { kind: 'next' };
        if (answer.outOfFloat) {
          const wait = decideFloatWait(round);
          return settle({ status: 'PENDING', nextAttemptAt: now + wait.delayMs, failureReason: answer.reason, now });
        }
        const decision = decideRetry(round, answer.retryAfterMs);
        // Every attempt provably did nothing: once the retries run out, failing and refunding is safe.
        if (decision.outcome === 'fail') return failAndRefund(tx, deps, order, workerId, answer.reason, now);
        return settle({ status: 'PENDING', nextAttemptAt: now + decision.delayMs, failureReason: answer.reason, now });
      }
    }
  });
  if (floatChange === 'out') {
    deps.log.error({ connector: attempt.connector, reason: answer.kind === 'retry' ? answer.reason : undefined }, 'upstream out of float: its orders wait until our credit there is topped up');
  } else if (floatChange === 'back') {
    deps.log.info({ connector: attempt.connector }, 'upstream accepts orders again: its float was topped up');
  }
  if (outcome.kind === 'order') afterSettling(deps, outcome.order);
  return outcome;
}

/**
 * What follows an order's commit once it is final, however it got there (an upstream's answer, a
 * refusal of every upstream, a person's resolution): it is counted, and its webhook event is sent now.
 */
export function afterSettling(deps: Deps, order: Order): void {
  if (order.status !== 'SUCCESS' && order.status !== 'FAILED') return;
  deps.telemetry.orderSettled(order.status);
  if (order.webhookName !== null) deps.signal.notify('events');
}

/** Puts a claimed order that was never sent back to wait (never failing it for that). */
export async function deferUnsent(deps: Deps, order: Order, workerId: string, reason: string): Promise<AnswerOutcome> {
  const now = deps.clock.now();
  const wait = decideFloatWait(order.attempts);
  const settled = await deps.store.transact((tx) => settleClaimedOrder(tx, order.id, workerId, { status: 'PENDING', nextAttemptAt: now + wait.delayMs, failureReason: reason, now }));
  if (settled) deps.log.error({ order: order.id, reason }, 'an order waits: no upstream can take it yet');
  return settled ? { kind: 'order', order: settled } : { kind: 'lost' };
}

/** Fails a claimed order that no upstream was ever asked to perform, refunding it. */
export async function failUnsent(deps: Deps, order: Order, workerId: string, reason: string): Promise<AnswerOutcome> {
  const now = deps.clock.now();
  const outcome = await deps.store.transact((tx) => failAndRefund(tx, deps, order, workerId, reason, now));
  if (outcome.kind === 'order') afterSettling(deps, outcome.order);
  return outcome;
}

async function failAndRefund(tx: Tx, deps: Deps, order: Order, workerId: string, reason: string, now: number): Promise<AnswerOutcome> {
  const failed = await settleClaimedOrder(tx, order.id, workerId, { status: 'FAILED', failureReason: reason, now });
  if (!failed) return { kind: 'lost' };
  const balanceAfter = await refundOrder(tx, failed);
  await appendLedgerEntries(tx, [{ accountId: failed.accountId, kind: 'refund', amount: failed.deduction, balanceAfter, orderId: failed.id, createdAt: now }]);
  await enqueueOrderEvent(tx, deps.renderEvent, failed, now);
  return { kind: 'order', order: failed };
}
