import { describe, expect, it } from 'vitest';
import { decimalFromNumber, divideRoundHalfUp, formatDecimal, parseDecimal, toJsonNumber } from '../../src/domain/money.js';

describe('parseDecimal', () => {
  it.each([
    ['100', 2, 10000n],
    ['100.5', 2, 10050n],
    ['100.50', 2, 10050n],
    ['0.01', 2, 1n],
    ['-3.25', 2, -325n],
    ['4.9773', 4, 49773n],
    [' 7.1 ', 2, 710n],
  ])('%s at scale %i is %s', (text, scale, expected) => {
    expect(parseDecimal(text, scale)).toBe(expected);
  });

  it.each(['', '1.001', '1e3', 'abc', '1,00', '.5', '1.', '+1', 'NaN', 'Infinity', '1234567890123456'])('refuses %j', (text) => {
    expect(parseDecimal(text, 2)).toBeUndefined();
  });
});

describe('decimalFromNumber', () => {
  it.each([
    [5, 500n],
    [10.25, 1025n],
    [0.1, 10n],
    [199.99, 19999n],
  ])('%d is %s cents', (value, expected) => expect(decimalFromNumber(value)).toBe(expected));

  it.each([0.001, 1e21, Number.NaN, Number.POSITIVE_INFINITY, 5e-7])('refuses %d', (value) =>
    expect(decimalFromNumber(value)).toBeUndefined(),
  );
});

describe('formatDecimal and toJsonNumber', () => {
  it.each([
    [500n, 2, '5.00'],
    [5n, 2, '0.05'],
    [-5n, 2, '-0.05'],
    [49773n, 4, '4.9773'],
    [0n, 2, '0.00'],
    [117945n, 2, '1179.45'],
  ])('%s at scale %i is %s', (units, scale, text) => expect(formatDecimal(units, scale)).toBe(text));

  it('gives the JSON number a client expects', () => {
    expect(toJsonNumber(117945n)).toBe(1179.45);
    expect(toJsonNumber(10000n)).toBe(100);
  });
});

describe('divideRoundHalfUp', () => {
  it.each([
    [5n, 10n, 1n],
    [4n, 10n, 0n],
    [15n, 10n, 2n],
    [-15n, 10n, -2n],
    [-14n, 10n, -1n],
    [248865n, 100n, 2489n],
  ])('%s / %s rounds to %s', (n, d, q) => expect(divideRoundHalfUp(n, d)).toBe(q));
});
