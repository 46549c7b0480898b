import { describe, expect, it } from 'vitest';
import { nearestAmounts, productFor, type UpstreamProduct } from '../../src/domain/upstream-product.js';

const base = { connector: 'dtone', name: 'p' } as const;
const products: UpstreamProduct[] = [
  { ...base, productId: 'f5', operator: 'vodafone', side: 'destination', kind: 'fixed', amount: 500n },
  { ...base, productId: 'f10', operator: 'vodafone', side: 'destination', kind: 'fixed', amount: 1000n },
  { ...base, productId: 'rd', operator: 'orange', side: 'destination', kind: 'ranged', min: 500n, max: 5000n, increment: 100n },
  { ...base, productId: 'rs', operator: 'orange', side: 'source', kind: 'ranged', min: 500n, max: 3000n, increment: 50n },
  { ...base, productId: 'f7', operator: 'orange', side: 'source', kind: 'fixed', amount: 700n },
];

describe('choosing an upstream product', () => {
  it('matches fixed denominations exactly and ranges by bounds and step, preferring ranged EUR source amounts', () => {
    expect(productFor(products, 'vodafone', 500n)?.productId).toBe('f5');
    expect(productFor(products, 'vodafone', 700n)).toBeUndefined();
    expect(productFor(products, 'orange', 700n)?.productId).toBe('rs');
    expect(productFor(products, 'orange', 4000n)?.productId).toBe('rd');
    expect(productFor(products, 'orange', 4050n)).toBeUndefined(); // off the destination range's 1.00 step
    expect(productFor(products, 'orange', 2550n)?.productId).toBe('rs');
    expect(productFor(products, 'telekom', 500n)).toBeUndefined();
  });

  it('names the nearest deliverable amounts for a refusal', () => {
    expect(nearestAmounts(products, 'vodafone', 700n)).toEqual([500n, 1000n]);
    expect(nearestAmounts(products, 'orange', 5050n)).toEqual([700n, 3000n, 5000n]);
    expect(nearestAmounts(products, 'orange', 5050n, 1)).toEqual([5000n]);
    expect(nearestAmounts(products, 'telekom', 500n)).toEqual([]);
  });
});
