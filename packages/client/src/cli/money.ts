/** "96.36" → 9636: the service writes money as decimal text with two decimals; sums are kept in cents. */
export function cents(text: string | number): number {
  return Math.round(Number(text) * 100);
}

export const decimal = (centsValue: number): string => `${centsValue < 0 ? '-' : ''}${Math.floor(Math.abs(centsValue) / 100)}.${String(Math.abs(centsValue) % 100).padStart(2, '0')}`;
