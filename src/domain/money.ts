/**
 * Money is integer minor units (`bigint`) everywhere inside the service. Decimal text and JSON
 * numbers are converted here, at the edge, and nowhere else.
 */

const DECIMAL = /^(-)?(\d{1,15})(?:\.(\d+))?$/;

/**
 * Parses decimal text with at most `scale` fraction digits into integer units of 10^-scale.
 * Returns undefined for anything else (exponents, extra digits, blanks): money is never guessed.
 *
 * @example parseDecimal('100.5', 2) === 10050n
 */
export function parseDecimal(text: string, scale = 2): bigint | undefined {
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > scale) return undefined;
  const units = BigInt(whole! + fraction.padEnd(scale, '0'));
  return sign ? -units : units;
}

/**
 * Converts a JSON number to minor units when it has at most `scale` decimals. A JSON number is a
 * double; its shortest round-trip text ("10.25", not 10.2499…) is what the client wrote.
 */
export function decimalFromNumber(value: number, scale = 2): bigint | undefined {
  if (!Number.isFinite(value)) return undefined;
  return parseDecimal(String(value), scale);
}

/** Formats integer units of 10^-scale as fixed decimal text: formatDecimal(500n, 2) === "5.00". */
export function formatDecimal(units: bigint, scale = 2): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? `.${digits.slice(digits.length - scale)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** Minor units as a JSON number (for fields the interface document types as `number`). */
export function toJsonNumber(units: bigint, scale = 2): number {
  return Number(formatDecimal(units, scale));
}

/** A JSON number of money (as upstreams send it) in minor units, rounded to `scale` decimals. */
export function fromJsonNumber(value: number, scale = 2): bigint {
  return parseDecimal(value.toFixed(scale), scale)!;
}

/** Integer division rounding half away from zero ("half-up" on magnitudes, as invoices do). */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -rounded : rounded;
}
