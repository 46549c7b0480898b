import type { Operator } from './operators.js';

/**
 * What an upstream sells for one Romanian operator, as its catalogue says: a fixed denomination, or a
 * range of amounts in steps. Amounts in euro cents, on the side (`source`: what we send, or
 * `destination`: what the phone receives) whose unit is EUR.
 */
export type UpstreamProduct = {
  readonly connector: string;
  readonly productId: string;
  readonly operator: Operator;
  readonly name: string;
  readonly side: 'source' | 'destination';
} & (
  | { readonly kind: 'fixed'; readonly amount: bigint }
  | { readonly kind: 'ranged'; readonly min: bigint; readonly max: bigint; readonly increment: bigint }
);

const fits = (p: UpstreamProduct, amount: bigint) =>
  p.kind === 'fixed' ? p.amount === amount : amount >= p.min && amount <= p.max && (amount - p.min) % (p.increment > 0n ? p.increment : 1n) === 0n;

/** Ranged EUR source amounts first (any amount, priced by what we send), then fixed denominations. */
const preference = (p: UpstreamProduct) => (p.kind === 'ranged' ? (p.side === 'source' ? 0 : 1) : 2);

/** The product of `products` that delivers exactly `amount` to a number of `operator`, if one does. */
export function productFor(products: readonly UpstreamProduct[], operator: Operator, amount: bigint): UpstreamProduct | undefined {
  return products
    .filter((p) => p.operator === operator && fits(p, amount))
    .sort((a, b) => preference(a) - preference(b))[0];
}

/** The amounts nearest to `amount` that some product delivers for `operator`: for a helpful refusal. */
export function nearestAmounts(products: readonly UpstreamProduct[], operator: Operator, amount: bigint, count = 3): bigint[] {
  const candidates = new Set<bigint>();
  for (const p of products.filter((q) => q.operator === operator)) {
    if (p.kind === 'fixed') candidates.add(p.amount);
    else {
      const step = p.increment > 0n ? p.increment : 1n;
      const clamped = amount < p.min ? p.min : amount > p.max ? p.max : amount;
      const below = p.min + ((clamped - p.min) / step) * step;
      candidates.add(below);
      if (below + step <= p.max) candidates.add(below + step);
    }
  }
  const distance = (a: bigint) => (a > amount ? a - amount : amount - a);
  return [...candidates].sort((a, b) => Number(distance(a) - distance(b)) || Number(a - b)).slice(0, count).sort((a, b) => Number(a - b));
}
