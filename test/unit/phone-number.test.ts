import { describe, expect, it } from 'vitest';
import { decideEligibility } from '../../src/domain/number-eligibility.js';
import { operatorByAllocation, type Operator } from '../../src/domain/operators.js';
import { parseRomanianMobile } from '../../src/domain/phone-number.js';

const rules = { environment: 'staging' as const, operators: ['orange', 'vodafone', 'telekom', 'digi'] as Operator[] };

describe('accepted written forms', () => {
  it.each([
    '0744123456',
    '40744123456',
    '+40744123456',
    '0040744123456',
    '0744 123 456',
    '0744.123.456',
    '0744-123-456',
    '(0744) 123 456',
    '+40 (744) 123-456',
  ])('%j is 40744123456', (input) => {
    const parsed = parseRomanianMobile(input);
    expect(parsed).toMatchObject({ ok: true, msisdn: '40744123456', national: '0744123456' });
  });
});

describe('refusals', () => {
  it.each([
    ['', 'invalid_number'],
    ['abc', 'invalid_number'],
    ['07441234', 'invalid_number'],
    ['074412345678', 'invalid_number'],
    ['0744/123/456', 'invalid_number'],
    ['+4074412345a', 'invalid_number'],
    ['0781123456', 'invalid_number'],
    ['0212345678', 'not_mobile'],
    ['+40212345678', 'not_mobile'],
    ['+33612345678', 'unsupported_country'],
    ['+4915112345678', 'unsupported_country'],
    ['+999123', 'invalid_number'],
    ['1'.repeat(40), 'invalid_number'],
  ])('%j is %s', (input, code) => {
    expect(parseRomanianMobile(input)).toMatchObject({ ok: false, code });
  });
});

describe('original allocation table', () => {
  it.each([
    ['0721123456', 'vodafone'],
    ['0731123456', 'vodafone'],
    ['0791123456', 'vodafone'],
    ['0741123456', 'orange'],
    ['0751123456', 'orange'],
    ['0761123456', 'telekom'],
    ['0787123456', 'telekom'],
    ['0711123456', 'telekom'],
    ['0770123456', 'digi'],
    ['0773123456', 'digi'],
    ['0777123456', 'digi'],
  ])('%s is %s', (input, operator) => {
    const parsed = parseRomanianMobile(input);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(operatorByAllocation(parsed.significant)).toBe(operator);
    expect(decideEligibility(parsed, undefined, rules)).toMatchObject({ ok: true, operator, ported: false });
  });

  it.each(['0701123456', '0710123456', '0712123456', '0778123456'])('%s has no operator we serve', (input) => {
    const parsed = parseRomanianMobile(input);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(decideEligibility(parsed, undefined, rules)).toMatchObject({ ok: false, code: 'unsupported_operator' });
  });
});

describe('eligibility', () => {
  const orangeNumber = parseRomanianMobile('0744123456');
  if (!orangeNumber.ok) throw new Error('fixture');

  it('prefers the ported operator to the allocation', () => {
    expect(decideEligibility(orangeNumber, 'vodafone', rules)).toMatchObject({ ok: true, operator: 'vodafone', ported: true });
  });

  it('refuses operators outside TOPUP_OPERATORS, also when ported to them', () => {
    const served = { ...rules, operators: ['vodafone', 'telekom'] as Operator[] };
    expect(decideEligibility(orangeNumber, undefined, served)).toMatchObject({ ok: false, code: 'unsupported_operator' });
    expect(decideEligibility(orangeNumber, 'digi', served)).toMatchObject({ ok: false, code: 'unsupported_operator' });
    expect(decideEligibility(orangeNumber, 'vodafone', served)).toMatchObject({ ok: true, operator: 'vodafone' });
  });

  it('treats numbers ending in 990 as postpaid in staging only', () => {
    const postpaid = parseRomanianMobile('0744123990');
    if (!postpaid.ok) throw new Error('fixture');
    expect(decideEligibility(postpaid, undefined, rules)).toMatchObject({ ok: false, code: 'not_prepaid' });
    expect(decideEligibility(postpaid, undefined, { ...rules, environment: 'production' })).toMatchObject({ ok: true });
  });
});
