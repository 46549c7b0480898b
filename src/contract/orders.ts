import { Type, type Static } from '@sinclair/typebox';
import { formatDecimal, toJsonNumber } from '../domain/money.js';
import type { Order, OrderListEntry } from '../domain/order.js';
import { ORDER_STATUSES } from '../domain/order-status.js';
import { CurrencySchema, DecimalText, OperatorSchema, PageQuerySchema, Timestamp, isoTime } from './common.js';

const StatusSchema = Type.Union(ORDER_STATUSES.map((s) => Type.Literal(s)));

/** The order record of the interface document (2.7), with DESIGN.md's extras. */
export const OrderRecordSchema = Type.Object({
  recharge_uuid: Type.String({ format: 'uuid' }),
  number: Type.String({ description: 'International digits form' }),
  network: OperatorSchema,
  amount: Type.Number({ description: 'EUR' }),
  currency: Type.Literal('EUR'),
  recharge_status: StatusSchema,
  fast_recharge: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  failure_reason: Type.Union([Type.String(), Type.Null()]),
  passthrough: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
});
export type OrderRecord = Static<typeof OrderRecordSchema>;

const Decimal = DecimalText();
export const OrderDetailSchema = Type.Composite([
  OrderRecordSchema,
  Type.Object({
    operator_reference: Type.Union([Type.String(), Type.Null()], {
      description: "the operator's (or upstream's) transaction reference, once the top-up succeeded",
    }),
    pricing: Type.Object({
      amount: Decimal,
      amountInRon: Decimal,
      eurronRateApplied: Decimal,
      vatRateApplied: Decimal,
      fastRechargeFee: Decimal,
      fastRechargeFeeInRon: Decimal,
      netInRon: Decimal,
      grossInRon: Decimal,
      deduction: Decimal,
      deductionCurrency: CurrencySchema,
    }),
  }),
]);
export type OrderDetail = Static<typeof OrderDetailSchema>;

export const OrderQuerySchema = Type.Composite(
  [
    PageQuerySchema,
    Type.Object({
      status: Type.Optional(StatusSchema),
      phone_number: Type.Optional(Type.String({ maxLength: 64 })),
      document_id: Type.Optional(Type.String({ format: 'uuid' })),
      from: Type.Optional(Type.String({ format: 'date-time', description: 'created at or after (ISO 8601)' })),
      to: Type.Optional(Type.String({ format: 'date-time', description: 'created before (ISO 8601)' })),
      after: Type.Optional(Type.String({ format: 'uuid', description: 'the orders after this one in the listing (keyset paging; `page` is then ignored)' })),
      format: Type.Optional(Type.Literal('csv', { description: 'csv: every matching order as text/csv, streamed, without paging (so does Accept: text/csv)' })),
    }),
  ],
  { additionalProperties: false },
);
export type OrderQuery = Static<typeof OrderQuerySchema>;

export const OrderIdParamsSchema = Type.Object({ recharge_uuid: Type.String({ maxLength: 64 }) });

export function presentOrderRecord(o: OrderListEntry): OrderRecord {
  return {
    recharge_uuid: o.id,
    number: o.msisdn,
    network: o.operator,
    amount: toJsonNumber(o.amount),
    currency: 'EUR',
    recharge_status: o.status,
    fast_recharge: o.fast,
    created_at: isoTime(o.createdAt),
    updated_at: isoTime(o.updatedAt),
    failure_reason: o.failureReason,
    passthrough: o.passthrough === null ? null : (JSON.parse(o.passthrough) as Record<string, unknown>),
  };
}

/** One order with the figures it was priced with, for GET /v1/account/recharges/{id}. */
export function presentOrderDetail(o: Order): OrderDetail {
  return {
    ...presentOrderRecord(o),
    operator_reference: o.operatorReference,
    pricing: {
      amount: formatDecimal(o.amount),
      amountInRon: formatDecimal(o.amountRon),
      eurronRateApplied: formatDecimal(o.eurRon, 4),
      vatRateApplied: formatDecimal(o.vat, 2),
      fastRechargeFee: formatDecimal(o.fastFee),
      fastRechargeFeeInRon: formatDecimal(o.fastFeeRon),
      netInRon: formatDecimal(o.netRon),
      grossInRon: formatDecimal(o.grossRon),
      deduction: formatDecimal(o.deduction),
      deductionCurrency: o.currency,
    },
  };
}

/** The columns of a CSV export, in order. */
export const ORDER_CSV_COLUMNS = [
  'recharge_uuid',
  'number',
  'network',
  'amount',
  'currency',
  'recharge_status',
  'fast_recharge',
  'created_at',
  'updated_at',
  'failure_reason',
  'document_id',
  'deduction',
  'deduction_currency',
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. A text that a
 * spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) is prefixed
 * with an apostrophe, as OWASP advises: an export must never execute in the customer's spreadsheet.
 */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const orderCsvHeader = (): string => `${ORDER_CSV_COLUMNS.join(',')}\r\n`;

/** One exported order as a CSV line. */
export function orderCsvLine(o: OrderListEntry & Pick<Order, 'documentId' | 'deduction' | 'currency'>): string {
  return `${[
    o.id,
    o.msisdn,
    o.operator,
    formatDecimal(o.amount),
    'EUR',
    o.status,
    o.fast,
    isoTime(o.createdAt),
    isoTime(o.updatedAt),
    o.failureReason,
    o.documentId,
    formatDecimal(o.deduction),
    o.currency,
  ]
    .map(csvField)
    .join(',')}\r\n`;
}
