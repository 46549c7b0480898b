import type { Currency } from './currency.js';
import type { Operator } from './operators.js';
import type { OrderStatus } from './order-status.js';

/**
 * What an order was priced with and what it cost, fixed when it is placed. Amounts in minor units:
 * `amount` and `fastFee` in euro cents, the `*Ron` figures in bani, `amountNet`…`deduction` in the
 * account's currency; `eurRon` in units of 0.0001 and `vat` in hundredths.
 */
export interface OrderFigures {
  readonly amount: bigint;
  readonly eurRon: bigint;
  readonly vat: bigint;
  readonly fastFee: bigint;
  readonly amountRon: bigint;
  readonly fastFeeRon: bigint;
  readonly netRon: bigint;
  readonly grossRon: bigint;
  readonly amountNet: bigint;
  readonly amountGross: bigint;
  readonly feeNet: bigint;
  readonly feeGross: bigint;
  /** What the account paid, in its own currency: amountGross + feeGross. */
  readonly deduction: bigint;
}

/** One top-up of one number, from placement to its final status. */
export interface Order extends OrderFigures {
  readonly id: string;
  readonly accountId: string;
  /** The recharge request that placed it, shared by its entries. */
  readonly requestId: string;
  readonly arrayPosition: number;
  readonly msisdn: string;
  readonly operator: Operator;
  readonly fast: boolean;
  /** The account's currency: the currency of `deduction` and of the *Net/*Gross figures. */
  readonly currency: Currency;
  readonly status: OrderStatus;
  /** Operator attempts started so far. */
  readonly attempts: number;
  /** PENDING: when the next attempt is due; PROCESSING: when the worker's claim expires. */
  readonly nextAttemptAt: number;
  /** The worker holding a PROCESSING order. */
  readonly claimedBy: string | null;
  readonly operatorReference: string | null;
  readonly failureReason: string | null;
  /** The caller's passthrough object as JSON text, returned verbatim. */
  readonly passthrough: string | null;
  readonly documentId: string | null;
  /** The webhook endpoint that hears of its final status, if any. */
  readonly webhookName: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What a listing shows of an order: a listing reads only these columns. */
export type OrderListEntry = Pick<
  Order,
  'id' | 'msisdn' | 'operator' | 'amount' | 'status' | 'fast' | 'createdAt' | 'updatedAt' | 'failureReason' | 'passthrough'
>;

/** What a placement did: the orders it placed, all PENDING, paid for in the account's currency. */
export interface Placement {
  readonly currency: Currency;
  readonly orders: readonly Order[];
}

/** Sums over a batch of orders, as the account's totals keep them. */
export interface OrderTotals {
  readonly count: bigint;
  readonly deduction: bigint;
  readonly amountNet: bigint;
  readonly amountGross: bigint;
  readonly feeNet: bigint;
  readonly feeGross: bigint;
}

export function totalsOf(orders: readonly OrderFigures[]): OrderTotals {
  let deduction = 0n;
  let amountNet = 0n;
  let amountGross = 0n;
  let feeNet = 0n;
  let feeGross = 0n;
  for (const o of orders) {
    deduction += o.deduction;
    amountNet += o.amountNet;
    amountGross += o.amountGross;
    feeNet += o.feeNet;
    feeGross += o.feeGross;
  }
  return { count: BigInt(orders.length), deduction, amountNet, amountGross, feeNet, feeGross };
}

/** Filters of an account's order listing, as parsed and checked. */
export interface OrderFilter {
  readonly status?: OrderStatus;
  readonly msisdn?: string;
  readonly documentId?: string;
  /** Created at or after (epoch ms). */
  readonly from?: number;
  /** Created before (epoch ms). */
  readonly to?: number;
}
