import type { OperatorVerdict } from '../app/fulfil-orders.js';
import type { Operator } from '../domain/operators.js';

export interface TopUpRequest {
  /** Our order id: the operator's idempotency reference for this top-up. */
  readonly rechargeId: string;
  readonly msisdn: string;
  readonly operator: Operator;
  /** Euro cents. */
  readonly amount: bigint;
  readonly fast: boolean;
}

/** An operator's answer is exactly what the fulfilment use case records. */
export type OperatorAnswer = OperatorVerdict;

/** One way of talking to operators. Real connectors and the staging simulator share this shape. */
export interface OperatorConnector {
  readonly name: string;
  topUp(request: TopUpRequest): Promise<OperatorAnswer>;
  /**
   * What the operator knows of an earlier top-up with this id: its answer; `not_found` when it has no
   * such top-up (it never performed it, so sending again is safe); or `unknown` when it could not tell
   * (no answer in time): then nothing is sent, and the order is asked about again later. Asked before
   * any resend, so one order is never topped up twice.
   */
  status(rechargeId: string): Promise<OperatorAnswer | { readonly kind: 'not_found' }>;
}
