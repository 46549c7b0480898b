import type { Operator } from './operators.js';

/** Top-up amounts each operator accepts, in euro cents, inclusive. */
export const AMOUNT_BOUNDS: Readonly<Record<Operator, { readonly min: bigint; readonly max: bigint }>> = Object.freeze({
  orange: { min: 100n, max: 20_000n },
  vodafone: { min: 500n, max: 10_000n },
  telekom: { min: 500n, max: 10_000n },
  digi: { min: 500n, max: 10_000n },
});
