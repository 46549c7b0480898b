/**
 * Romanian standard VAT, in hundredths (21n = 0.21). The rate in force when the order is placed
 * applies. The change took effect on 1 August 2025, Bucharest time (UTC+3 in summer).
 */
export const VAT_CHANGE_AT = Date.parse('2025-08-01T00:00:00+03:00');

export function vatRateAt(epochMs: number, fixed?: bigint): bigint {
  if (fixed !== undefined) return fixed;
  return epochMs < VAT_CHANGE_AT ? 19n : 21n;
}
