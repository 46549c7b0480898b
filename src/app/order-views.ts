import { formatDecimal, toJsonNumber } from '../domain/money.js';
import type { OrderListEntry, OrderRecord } from '../store/orders.repository.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** One entry of the recharge response's orderSummary (interface document 2.2). */
export function orderSummaryEntry(o: OrderRecord) {
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

/** The order record of the account listing (interface document 2.7) with DESIGN.md's extras. */
export function orderRecordView(o: OrderListEntry) {
  return {
    recharge_uuid: o.id,
    number: o.msisdn,
    network: o.operator,
    amount: toJsonNumber(o.amount),
    currency: 'EUR' as const,
    recharge_status: o.status,
    fast_recharge: o.fast,
    created_at: iso(o.createdAt),
    updated_at: iso(o.updatedAt),
    failure_reason: o.failureReason,
    passthrough: o.passthrough === null ? null : (JSON.parse(o.passthrough) as Record<string, unknown>),
  };
}

/** One order with the figures it was priced with, for GET /v1/account/recharges/{id}. */
export function orderDetailView(o: OrderRecord) {
  return {
    ...orderRecordView(o),
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
