import type { Currency } from './currency.js';
import { divideRoundHalfUp } from './money.js';

/**
 * The price of one top-up, per DESIGN.md, in exact integer arithmetic. Amounts are minor units
 * (cents, bani); the EUR/RON rate is in units of 0.0001 and VAT in hundredths. round2 is half-up.
 */
export interface PriceInput {
  /** Top-up amount in euro cents, excluding VAT. */
  readonly amount: bigint;
  readonly fast: boolean;
  /** Fast recharge fee in euro cents (charged only when fast). */
  readonly fastFee: bigint;
  /** EUR/RON in units of 0.0001 (4.9773 → 49773n). */
  readonly eurRon: bigint;
  /** VAT in hundredths (0.21 → 21n). */
  readonly vat: bigint;
  readonly accountCurrency: Currency;
}

export interface Price {
  readonly amount: bigint;
  readonly amountInRon: bigint;
  readonly fastRechargeFee: bigint;
  readonly fastRechargeFeeInRon: bigint;
  readonly netInRon: bigint;
  readonly grossInRon: bigint;
  /** What the account pays, in its own currency. */
  readonly deduction: bigint;
  /** The account-currency figures the account summary adds up; amountGross + feeGross = deduction. */
  readonly amountNet: bigint;
  readonly amountGross: bigint;
  readonly feeNet: bigint;
  readonly feeGross: bigint;
}

const RATE_SCALE = 10_000n;
const VAT_SCALE = 100n;

const convert = (euroCents: bigint, eurRon: bigint) => divideRoundHalfUp(euroCents * eurRon, RATE_SCALE);
const withVat = (net: bigint, vat: bigint) => divideRoundHalfUp(net * (VAT_SCALE + vat), VAT_SCALE);

export function priceEntry(input: PriceInput): Price {
  const fastRechargeFee = input.fast ? input.fastFee : 0n;
  const amountInRon = convert(input.amount, input.eurRon);
  const fastRechargeFeeInRon = convert(fastRechargeFee, input.eurRon);
  const grossAmountRon = withVat(amountInRon, input.vat);
  const grossFeeRon = withVat(fastRechargeFeeInRon, input.vat);
  const ron = input.accountCurrency === 'RON';
  const amountNet = ron ? amountInRon : input.amount;
  const feeNet = ron ? fastRechargeFeeInRon : fastRechargeFee;
  const amountGross = ron ? grossAmountRon : withVat(input.amount, input.vat);
  const feeGross = ron ? grossFeeRon : withVat(fastRechargeFee, input.vat);
  return {
    amount: input.amount,
    amountInRon,
    fastRechargeFee,
    fastRechargeFeeInRon,
    netInRon: amountInRon + fastRechargeFeeInRon,
    grossInRon: grossAmountRon + grossFeeRon,
    deduction: amountGross + feeGross,
    amountNet,
    amountGross,
    feeNet,
    feeGross,
  };
}
