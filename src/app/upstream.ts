import type { Order } from '../domain/order.js';
import type { UpstreamAttempt, UpstreamCost } from '../domain/upstream-attempt.js';
import type { UpstreamProduct } from '../domain/upstream-product.js';

/**
 * What an upstream said about one attempt, as the fulfilment use case records it:
 * - `success`: the phone was topped up.
 * - `failed`: the upstream's final failure, documented as not charged. `final` marks a failure no other
 *   upstream could avoid (an invalid or barred number): the order fails without trying the next one.
 * - `retry`: refused before anything was performed (unavailable, rate limited, a request that never
 *   left us): the next upstream may try, or this one later. `outOfFloat`: refused for want of our
 *   credit with it; the order then waits (never fails for it) until the upstream is topped up.
 * - `pending`: accepted; its outcome comes later, by lookup (or a callback that triggers one).
 * - `unknown`: no answer (a timeout, a dropped connection, a 5xx after sending): the top-up may have
 *   happened, so it is never a failure and never sent under a new reference; it is looked up.
 */
export type UpstreamAnswer =
  | { readonly kind: 'success'; readonly operatorReference?: string; readonly upstreamId?: string; readonly cost?: UpstreamCost }
  | { readonly kind: 'failed'; readonly reason: string; readonly final?: boolean; readonly upstreamId?: string }
  | { readonly kind: 'retry'; readonly reason: string; readonly retryAfterMs?: number; readonly outOfFloat?: boolean }
  | { readonly kind: 'pending'; readonly upstreamId?: string; readonly cost?: UpstreamCost; readonly reason?: string }
  | { readonly kind: 'unknown'; readonly reason: string };

/** A lookup's answer when the upstream has no transaction under the attempt's reference. */
export interface NotFound {
  readonly kind: 'not_found';
}

/**
 * One upstream provider (or the staging simulator), as fulfilment needs it. Both calls must respect
 * `signal` (the operator deadline) and classify what they can: a throw counts as an unknown outcome.
 */
export interface UpstreamConnector {
  readonly name: string;
  /** Whether it can perform this order at all (its operator and amount); asked before an attempt. */
  serves(order: Order): boolean;
  /**
   * Sends the attempt. Sending the same attempt again must be safe: the upstream de-duplicates on its
   * reference (an idempotency key, a unique external id), so a resend after a lost answer never tops
   * up twice.
   */
  send(attempt: UpstreamAttempt, order: Order, signal: AbortSignal): Promise<UpstreamAnswer>;
  /** What the upstream knows of the attempt, found by its id or, failing that, by its reference. */
  lookup(attempt: UpstreamAttempt, order: Order, signal: AbortSignal): Promise<UpstreamAnswer | NotFound>;
  /** Our credit with the upstream, for the providers that keep a prepaid float. */
  balance?(signal: AbortSignal): Promise<UpstreamBalance>;
  /** The upstream's products for Romanian operators, for catalogue upstreams (`topup upstream products sync`). */
  products?(signal: AbortSignal): Promise<UpstreamProduct[]>;
  /** The upstream's own record of our transactions created in [from, to), for reconciliation. */
  transactions?(period: { readonly from: number; readonly to: number }, signal: AbortSignal): AsyncIterable<UpstreamTransaction>;
}

/** One transaction as the upstream records it. */
export interface UpstreamTransaction {
  readonly upstreamId: string;
  /** Our attempt reference, when the upstream kept it. */
  readonly reference: string | null;
  readonly state: 'succeeded' | 'failed' | 'pending';
  /** The top-up's amount in euro cents, when the upstream's record states it. */
  readonly amount?: bigint;
  readonly cost?: UpstreamCost;
  readonly createdAt: number;
}

/** Our credit with an upstream, in minor units of its currency. */
export interface UpstreamBalance {
  readonly available: bigint;
  readonly currency: string;
}

/** A lookup changes nothing upstream: when it fails (refused, errored), we simply still do not know. */
export function lookupFailure(answer: UpstreamAnswer): UpstreamAnswer {
  return answer.kind === 'unknown' ? answer : { kind: 'unknown', reason: answer.kind === 'retry' ? answer.reason : `lookup ${answer.kind}` };
}
