/**
 * One try at performing an order through one upstream connector, under its own reference. An order has
 * at most one open attempt; a new attempt (with a new reference) is made only after the previous one
 * provably did not top up the phone, so a reference is what an upstream de-duplicates on: sending the
 * same attempt again can never top up twice.
 *
 * - `sending`: written before the request leaves us, so a crash after the send still knows to look.
 * - `open`: the upstream accepted it, or we do not know (no answer): looked up until it answers.
 * - `succeeded` / `failed`: the upstream's final answer (`failed` is documented as not charged).
 * - `not_performed`: refused before anything was performed (unavailable, rate limited, out of float).
 */
export const ATTEMPT_STATES = ['sending', 'open', 'succeeded', 'failed', 'not_performed'] as const;
export type AttemptState = (typeof ATTEMPT_STATES)[number];

/** What an upstream charged us for an attempt, in minor units of its currency. */
export interface UpstreamCost {
  readonly amount: bigint;
  readonly currency: string;
}

export interface UpstreamAttempt {
  /** `<order id>` for the first attempt, `<order id>-<n>` after: unique per attempt, ≤ 40 characters. */
  readonly reference: string;
  readonly orderId: string;
  /** 1, 2, …: the order of attempts. */
  readonly number: number;
  readonly connector: string;
  readonly state: AttemptState;
  /** The upstream's own id for the transaction, once it told us. */
  readonly upstreamId: string | null;
  /** The operator's transaction reference, once known. */
  readonly operatorReference: string | null;
  readonly cost: UpstreamCost | null;
  /** The upstream's last word on it (a failure reason, why it is still open). */
  readonly detail: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export const isOpenAttempt = (attempt: UpstreamAttempt): boolean => attempt.state === 'sending' || attempt.state === 'open';

/** The reference of an order's n-th attempt. */
export function attemptReference(orderId: string, number: number): string {
  return number === 1 ? orderId : `${orderId}-${number}`;
}
