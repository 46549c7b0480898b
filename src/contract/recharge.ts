import { Type, type Static } from '@sinclair/typebox';
import { formatDecimal } from '../domain/money.js';
import { totalsOf, type Order, type Placement } from '../domain/order.js';
import { WEBHOOK_NAME } from '../domain/webhook-endpoint.js';
import { CurrencySchema, DecimalText as Decimal, OperatorSchema } from './common.js';

/** The body of POST /v1/recharge; `maxEntries` is TOPUP_MAX_ENTRIES. */
export const rechargeRequestSchema = (maxEntries: number) =>
  Type.Object(
    {
      recharges: Type.Array(
        Type.Object(
          {
            phone_number: Type.String({ maxLength: 64, description: 'Any form check-number accepts' }),
            amount: Type.Number({ description: 'EUR of prepaid credit, excluding VAT, at most 2 decimals' }),
            fast_recharge: Type.Optional(Type.Boolean({ description: 'Overrides the top-level fast_recharge for this entry' })),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: maxEntries },
      ),
      passthrough: Type.Optional(
        Type.Object(
          { document_id: Type.Optional(Type.String({ format: 'uuid' })) },
          { additionalProperties: true, description: 'Caller metadata, up to 4 KiB; returned in order records and webhooks' },
        ),
      ),
      fast_recharge: Type.Optional(Type.Boolean({ description: 'Fast recharge for every entry (a fee applies)' })),
      webhook_name: Type.Optional(Type.String({ pattern: WEBHOOK_NAME.source, description: 'A registered endpoint name' })),
    },
    { additionalProperties: false },
  );
export type RechargeRequest = Static<ReturnType<typeof rechargeRequestSchema>>;

export const IdempotencyHeadersSchema = Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) });

const OrderSummaryEntrySchema = Type.Object({
  arrayPosition: Type.Integer(),
  amount: Decimal('EUR, 2 decimals'),
  amountInRon: Decimal('RON'),
  eurronRateApplied: Decimal('4 decimals'),
  fastRechargeFee: Decimal('EUR'),
  fastRechargeFeeInRon: Decimal('RON'),
  netInRon: Decimal('RON'),
  grossInRon: Decimal('RON'),
  operator: OperatorSchema,
  phoneNumber: Type.String(),
  rechargeId: Type.String({ format: 'uuid' }),
  vatRateApplied: Decimal('fraction, 2 decimals'),
  deduction: Decimal('in the account currency'),
  status: Type.Literal('PENDING'),
});
type OrderSummaryEntry = Static<typeof OrderSummaryEntrySchema>;

export const RechargePlacedSchema = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  currency: CurrencySchema,
  balanceDeduction: Decimal('total deducted, 2 decimals'),
  fastRecharge: Type.Boolean(),
  orderSummary: Type.Array(OrderSummaryEntrySchema),
});
export type RechargePlaced = Static<typeof RechargePlacedSchema>;

/** One entry of the recharge answer's orderSummary (interface document 2.2). */
function presentSummaryEntry(o: Order): OrderSummaryEntry {
  if (o.status !== 'PENDING') throw new Error(`order ${o.id} is ${o.status}: only a placement's own orders are presented here`);
  return {
    arrayPosition: o.arrayPosition,
    amount: formatDecimal(o.amount),
    amountInRon: formatDecimal(o.amountRon),
    eurronRateApplied: formatDecimal(o.eurRon, 4),
    fastRechargeFee: formatDecimal(o.fastFee),
    fastRechargeFeeInRon: formatDecimal(o.fastFeeRon),
    netInRon: formatDecimal(o.netRon),
    grossInRon: formatDecimal(o.grossRon),
    operator: o.operator,
    phoneNumber: o.msisdn,
    rechargeId: o.id,
    vatRateApplied: formatDecimal(o.vat, 2),
    deduction: formatDecimal(o.deduction),
    status: o.status,
  };
}

/** The 201 answer of a placement: the orders just placed, all PENDING. */
export function presentRechargePlaced(placement: Placement): RechargePlaced {
  const { orders } = placement;
  return {
    success: true,
    message: `${orders.length} recharge order${orders.length === 1 ? '' : 's'} registered; each is fulfilled asynchronously.`,
    currency: placement.currency,
    balanceDeduction: formatDecimal(totalsOf(orders).deduction),
    fastRecharge: orders.some((o) => o.fast),
    orderSummary: orders.map(presentSummaryEntry),
  };
}

const QuoteEntrySchema = Type.Omit(OrderSummaryEntrySchema, ['rechargeId', 'status']);

export const RechargeQuoteSchema = Type.Object({
  success: Type.Literal(true),
  currency: CurrencySchema,
  balanceDeduction: Decimal('what the request would deduct, 2 decimals'),
  balanceAfter: Decimal('the balance after it (negative when the credit does not cover it)'),
  sufficientFunds: Type.Boolean(),
  fastRecharge: Type.Boolean(),
  orderSummary: Type.Array(QuoteEntrySchema),
});
export type RechargeQuote = Static<typeof RechargeQuoteSchema>;

/** The 200 answer of a quote: each entry as a placement would answer it, without an id or a status. */
export function presentRechargeQuote(quote: { currency: Placement['currency']; orders: readonly Order[]; balance: bigint }): RechargeQuote {
  const deduction = totalsOf(quote.orders).deduction;
  return {
    success: true,
    currency: quote.currency,
    balanceDeduction: formatDecimal(deduction),
    balanceAfter: formatDecimal(quote.balance - deduction),
    sufficientFunds: quote.balance >= deduction,
    fastRecharge: quote.orders.some((o) => o.fast),
    orderSummary: quote.orders.map((o) => {
      const { rechargeId: _id, status: _status, ...entry } = presentSummaryEntry(o);
      return entry;
    }),
  };
}
