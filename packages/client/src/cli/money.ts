/** "96.36" → 9636: the service writes money as decimal text with two decimals; sums are kept in cents. */
export function cents(text: string | number): number {
  const [whole = '0', fraction = ''] = String(text).split('.');
  const sign = whole.startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(whole)) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2)));
}

export const decimal = (centsValue: number): string => `${centsValue < 0 ? '-' : ''}${Math.floor(Math.abs(centsValue) / 100)}.${String(Math.abs(centsValue) % 100).padStart(2, '0')}`;
