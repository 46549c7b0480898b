import { AMOUNT_BOUNDS } from './amount-bounds.js';
import type { FieldProblem } from './errors.js';
import { decimalFromNumber, formatDecimal } from './money.js';
import type { EligibleNumber } from './number-eligibility.js';
import type { Operator } from './operators.js';
import type { NumberProblem } from './phone-number.js';

export interface AcceptedEntry {
  readonly arrayPosition: number;
  readonly msisdn: string;
  readonly operator: Operator;
  /** Euro cents. */
  readonly amount: bigint;
  readonly fast: boolean;
}

export interface EntryFacts {
  readonly arrayPosition: number;
  readonly amount: number;
  readonly fast: boolean;
  /** The number, judged exactly as check-number judges it. */
  readonly number: EligibleNumber | NumberProblem;
  /** When this account last checked the number successfully, if ever. */
  readonly checkedAt: number | undefined;
}

export interface EntryRules {
  readonly now: number;
  /** 0 turns the mandatory check off. */
  readonly checkTtlMs: number;
}

/**
 * Judges one entry of a recharge request, listing every problem it has (so a caller fixes a batch in
 * one round trip, not one error at a time).
 */
export function assessEntry(facts: EntryFacts, rules: EntryRules): AcceptedEntry | FieldProblem[] {
  const problems: FieldProblem[] = [];
  const at = facts.arrayPosition;
  const number = facts.number;
  if (!number.ok) {
    problems.push({ arrayPosition: at, field: 'phone_number', code: number.code, message: number.message });
  } else if (rules.checkTtlMs > 0 && (facts.checkedAt === undefined || facts.checkedAt < rules.now - rules.checkTtlMs)) {
    problems.push({
      arrayPosition: at,
      field: 'phone_number',
      code: 'number_not_checked',
      message: `Check ${number.msisdn} with POST /v1/check-number before topping it up (a check is valid for ${Math.round(rules.checkTtlMs / 1000)} s).`,
    });
  }
  const amount = decimalFromNumber(facts.amount, 2);
  if (amount === undefined) {
    problems.push({ arrayPosition: at, field: 'amount', code: 'invalid_amount', message: 'The amount must be a number of euros with at most 2 decimals.' });
  } else if (number.ok) {
    const { min, max } = AMOUNT_BOUNDS[number.operator];
    if (amount < min || amount > max) {
      problems.push({
        arrayPosition: at,
        field: 'amount',
        code: 'amount_out_of_range',
        message: `${number.operator} top-ups are from ${formatDecimal(min)} to ${formatDecimal(max)} EUR.`,
      });
    }
  } else if (amount <= 0n) {
    problems.push({ arrayPosition: at, field: 'amount', code: 'amount_out_of_range', message: 'The amount must be positive.' });
  }
  if (problems.length > 0 || !number.ok || amount === undefined) return problems;
  return { arrayPosition: at, msisdn: number.msisdn, operator: number.operator, amount, fast: facts.fast };
}
