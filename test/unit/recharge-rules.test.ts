import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBnrFeed } from '../../src/domain/bnr-feed.js';
import { canMove, isFinal } from '../../src/domain/order-status.js';
import { assessEntry, type EntryFacts } from '../../src/domain/recharge-entry.js';
import { decideRetry, MAX_OPERATOR_ATTEMPTS } from '../../src/domain/retry-schedule.js';

const eligible = { ok: true as const, msisdn: '40744123456', national: '0744123456', operator: 'orange' as const, ported: false };
const now = Date.parse('2026-03-02T10:00:00Z');
const rules = { now, checkTtlMs: 86_400_000 };
const facts = (over: Partial<EntryFacts>): EntryFacts => ({ arrayPosition: 3, amount: 5, fast: false, number: eligible, checkedAt: now - 1000, ...over });

describe('assessEntry', () => {
  it('accepts a checked number and an amount within bounds', () => {
    expect(assessEntry(facts({ fast: true }), rules)).toEqual({ arrayPosition: 3, msisdn: '40744123456', operator: 'orange', amount: 500n, fast: true });
  });

  it.each([
    [{ amount: 0.99 }, 'amount_out_of_range'],
    [{ amount: 200.01 }, 'amount_out_of_range'],
    [{ amount: -5 }, 'amount_out_of_range'],
    [{ amount: 5.001 }, 'invalid_amount'],
    [{ amount: Number.NaN }, 'invalid_amount'],
    [{ checkedAt: undefined }, 'number_not_checked'],
    [{ checkedAt: now - 86_400_001 }, 'number_not_checked'],
  ])('%j → %s', (over, code) => {
    expect(assessEntry(facts(over), rules)).toEqual([expect.objectContaining({ arrayPosition: 3, code })]);
  });

  it('applies each operator its own bounds', () => {
    const vodafone = { ...eligible, operator: 'vodafone' as const };
    expect(assessEntry(facts({ number: vodafone, amount: 4.99 }), rules)).toEqual([expect.objectContaining({ code: 'amount_out_of_range' })]);
    expect(assessEntry(facts({ number: vodafone, amount: 100 }), rules)).toMatchObject({ amount: 10_000n });
    expect(assessEntry(facts({ number: vodafone, amount: 100.01 }), rules)).toEqual([expect.objectContaining({ code: 'amount_out_of_range' })]);
    expect(assessEntry(facts({ amount: 1 }), rules)).toMatchObject({ amount: 100n });
    expect(assessEntry(facts({ amount: 200 }), rules)).toMatchObject({ amount: 20_000n });
  });

  it('lists every problem of an entry', () => {
    const problems = assessEntry(facts({ checkedAt: undefined, amount: 1.234 }), rules);
    expect(problems).toEqual([expect.objectContaining({ code: 'number_not_checked' }), expect.objectContaining({ code: 'invalid_amount' })]);
  });

  it('does not require a check when the TTL is 0', () => {
    expect(assessEntry(facts({ checkedAt: undefined }), { now, checkTtlMs: 0 })).toMatchObject({ amount: 500n });
  });

  it('passes number problems through', () => {
    const problems = assessEntry(facts({ number: { ok: false, code: 'not_prepaid', message: 'postpaid' } }), rules);
    expect(problems).toEqual([{ arrayPosition: 3, field: 'phone_number', code: 'not_prepaid', message: 'postpaid' }]);
  });
});

describe('order state machine', () => {
  it.each([
    ['PENDING', 'PROCESSING', true],
    ['PROCESSING', 'SUCCESS', true],
    ['PROCESSING', 'FAILED', true],
    ['PROCESSING', 'PENDING', true],
    ['PENDING', 'SUCCESS', false],
    ['SUCCESS', 'FAILED', false],
    ['FAILED', 'PENDING', false],
  ] as const)('%s → %s is %s', (from, to, allowed) => expect(canMove(from, to)).toBe(allowed));

  it('knows the final states', () => {
    expect(isFinal('SUCCESS') && isFinal('FAILED')).toBe(true);
    expect(isFinal('PENDING') || isFinal('PROCESSING')).toBe(false);
  });
});

describe('retry schedule', () => {
  it('backs off and then gives up', () => {
    expect(decideRetry(1)).toEqual({ outcome: 'retry', delayMs: 5_000 });
    expect(decideRetry(2)).toEqual({ outcome: 'retry', delayMs: 30_000 });
    expect(decideRetry(MAX_OPERATOR_ATTEMPTS - 1).outcome).toBe('retry');
    expect(decideRetry(MAX_OPERATOR_ATTEMPTS)).toEqual({ outcome: 'fail' });
  });

  it('honours an operator Retry-After that is longer', () => {
    expect(decideRetry(1, 60_000)).toEqual({ outcome: 'retry', delayMs: 60_000 });
    expect(decideRetry(1, 10)).toEqual({ outcome: 'retry', delayMs: 5_000 });
  });
});

describe('National Bank of Romania feed', () => {
  it('reads the EUR rate and its date from the stored sample', () => {
    expect(parseBnrFeed(readFileSync('test/fixtures/nbrfxrates.xml', 'utf8'))).toEqual({ eurRon: 49_773n, date: '2026-11-20' });
  });

  it('ignores the namespace prefix', () => {
    const xml = '<b:DataSet xmlns:b="http://www.bnr.ro/xsd"><b:Body><b:Cube date="2026-01-05"><b:Rate currency="EUR">5.0861</b:Rate></b:Cube></b:Body></b:DataSet>';
    expect(parseBnrFeed(xml)).toEqual({ eurRon: 50_861n, date: '2026-01-05' });
  });

  it('takes the newest day of a multi-day feed', () => {
    const xml =
      '<DataSet><Body><Cube date="2026-01-05"><Rate currency="EUR">5.0861</Rate></Cube><Cube date="2026-01-06"><Rate currency="USD">4.3</Rate><Rate currency="EUR">5.0870</Rate></Cube></Body></DataSet>';
    expect(parseBnrFeed(xml)).toEqual({ eurRon: 50_870n, date: '2026-01-06' });
  });

  it.each(['', 'not xml', '<DataSet><Body><Cube date="2026-01-05"><Rate currency="USD">4.3</Rate></Cube></Body></DataSet>', '<DataSet><Body><Cube date="2026-01-05"><Rate currency="EUR">abc</Rate></Cube></Body></DataSet>'])(
    'finds no rate in %j',
    (xml) => expect(parseBnrFeed(xml)).toBeUndefined(),
  );
});
