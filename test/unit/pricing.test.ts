import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideRoundHalfUp } from '../../src/domain/money.js';
import { priceEntry, type PriceInput } from '../../src/domain/pricing.js';
import { vatRateAt } from '../../src/domain/vat.js';

const base: PriceInput = { amount: 500n, fast: false, fastFee: 50n, eurRon: 49_773n, vat: 21n, accountCurrency: 'RON' };

describe('priceEntry: DESIGN.md worked examples (EUR/RON 4.9773, VAT 0.21, fee 0.50)', () => {
  it('5 EUR fast costs 33.13 RON', () => {
    expect(priceEntry({ ...base, amount: 500n, fast: true })).toEqual({
      amount: 500n,
      amountInRon: 2489n, // 24.8865 → 24.89
      fastRechargeFee: 50n,
      fastRechargeFeeInRon: 249n, // 2.48865 → 2.49
      netInRon: 2738n,
      grossInRon: 3313n, // round2(24.89 × 1.21) + round2(2.49 × 1.21) = 30.12 + 3.01
      deduction: 3313n,
      amountNet: 2489n,
      amountGross: 3012n,
      feeNet: 249n,
      feeGross: 301n,
    });
  });

  it('10 EUR fast costs 63.23 RON, and the two together 96.36', () => {
    const ten = priceEntry({ ...base, amount: 1000n, fast: true });
    expect(ten.amountInRon).toBe(4977n);
    expect(ten.grossInRon).toBe(6323n);
    expect(ten.deduction + priceEntry({ ...base, amount: 500n, fast: true }).deduction).toBe(9636n);
  });

  it('charges no fee without fast recharge', () => {
    const plain = priceEntry({ ...base, amount: 1000n });
    expect(plain.fastRechargeFee).toBe(0n);
    expect(plain.fastRechargeFeeInRon).toBe(0n);
    expect(plain.grossInRon).toBe(6022n);
    expect(plain.deduction).toBe(6022n);
  });

  it('prices an EUR account in euros, with VAT rounded per part', () => {
    const eur = priceEntry({ ...base, amount: 1000n, fast: true, accountCurrency: 'EUR' });
    expect(eur.deduction).toBe(1210n + 61n); // round2(10 × 1.21) + round2(0.50 × 1.21) = 12.10 + 0.61 (0.605 half-up)
    expect(eur.grossInRon).toBe(6323n); // the RON figures are still reported
    expect([eur.amountNet, eur.amountGross, eur.feeNet, eur.feeGross]).toEqual([1000n, 1210n, 50n, 61n]);
  });
});

describe('rounding edge cases', () => {
  it.each([
    // amount cents, rate, expected amountInRon: exactly half a ban rounds up
    [1n, 5_0000n, 5n],
    [1n, 4_9950n, 5n], // 0.04995 → 0.05
    [1n, 4_9949n, 5n], // 0.049949 → 0.05
    [3n, 1_5000n, 5n], // 0.045 → 0.05 (half-up)
    [1n, 1_4999n, 1n], // 0.014999 → 0.01
    [20_000n, 4_9773n, 99_546n],
  ])('%s cents at %s is %s bani', (amount, eurRon, expected) => {
    expect(priceEntry({ ...base, amount, eurRon }).amountInRon).toBe(expected);
  });

  it('VAT on 0.05 at 0.19 rounds half-up (0.0595 → 0.06)', () => {
    expect(priceEntry({ ...base, amount: 1n, eurRon: 5_0000n, vat: 19n }).grossInRon).toBe(6n);
  });
});

describe('VAT schedule', () => {
  it('is 0.19 before 1 August 2025 (Bucharest) and 0.21 from then', () => {
    expect(vatRateAt(Date.parse('2025-07-31T20:59:59.999Z'))).toBe(19n);
    expect(vatRateAt(Date.parse('2025-07-31T21:00:00.000Z'))).toBe(21n);
    expect(vatRateAt(Date.parse('2026-11-22T00:00:00Z'))).toBe(21n);
    expect(vatRateAt(Date.parse('2020-01-01T00:00:00Z'), 24n)).toBe(24n);
  });
});

describe('properties', () => {
  const entry = fc.record({
    amount: fc.bigInt({ min: 100n, max: 20_000n }),
    fast: fc.boolean(),
    fastFee: fc.constantFrom(0n, 50n, 75n, 100n),
    eurRon: fc.bigInt({ min: 4_0000n, max: 6_0000n }),
    vat: fc.constantFrom(19n, 21n, 9n, 0n),
    accountCurrency: fc.constantFrom('RON' as const, 'EUR' as const),
  });

  it('every figure reconciles to the cent', () => {
    fc.assert(
      fc.property(entry, (input) => {
        const p = priceEntry(input);
        expect(p.netInRon).toBe(p.amountInRon + p.fastRechargeFeeInRon);
        expect(p.deduction).toBe(p.amountGross + p.feeGross);
        if (input.accountCurrency === 'RON') expect(p.deduction).toBe(p.grossInRon);
        // VAT is never negative and at most the rate (plus a rounding cent per part) of the net.
        const vat = p.deduction - p.amountNet - p.feeNet;
        expect(vat).toBeGreaterThanOrEqual(0n);
        expect(vat).toBeLessThanOrEqual(divideRoundHalfUp((p.amountNet + p.feeNet) * input.vat, 100n) + 2n);
      }),
      { numRuns: 2000 },
    );
  });

  it('totals of a random batch equal the sum of the parts, whatever the order', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 100 }), (inputs) => {
        const prices = inputs.map(priceEntry);
        const sum = (pick: (p: (typeof prices)[number]) => bigint) => prices.reduce((t, p) => t + pick(p), 0n);
        const reversed = [...inputs].reverse().map(priceEntry);
        expect(reversed.reduce((t, p) => t + p.deduction, 0n)).toBe(sum((p) => p.deduction));
        const totalDeducted = sum((p) => p.amountGross) + sum((p) => p.feeGross);
        expect(totalDeducted).toBe(sum((p) => p.deduction));
        const totalVat = totalDeducted - sum((p) => p.amountNet) - sum((p) => p.feeNet);
        expect(totalVat).toBe(sum((p) => p.deduction - p.amountNet - p.feeNet));
      }),
      { numRuns: 300 },
    );
  });
});
