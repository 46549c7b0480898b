import type { Environment } from './environment.js';
import { operatorByAllocation, type Operator } from './operators.js';
import { numberProblem, type NumberProblem, type RomanianMobile } from './phone-number.js';

export interface EligibleNumber {
  readonly ok: true;
  readonly msisdn: string;
  readonly national: string;
  readonly operator: Operator;
  readonly ported: boolean;
}

export interface EligibilityRules {
  readonly environment: Environment;
  readonly operators: readonly Operator[];
}

/** In staging, numbers ending in this suffix stand for postpaid subscribers, so integrators can test the refusal. */
export const STAGING_POSTPAID_SUFFIX = '990';

/**
 * Decides whether a parsed mobile number can be topped up: its operator is the ported one when the
 * number was ported, else the original allocation; the operator must be one we serve.
 */
export function decideEligibility(
  number: RomanianMobile,
  portedOperator: Operator | undefined,
  rules: EligibilityRules,
): EligibleNumber | NumberProblem {
  const operator = portedOperator ?? operatorByAllocation(number.significant);
  if (operator === undefined) {
    return numberProblem('unsupported_operator', 'The number belongs to a mobile range whose operator we do not serve.');
  }
  if (!rules.operators.includes(operator)) {
    return numberProblem('unsupported_operator', `Top-ups for ${operator} numbers are not offered.`);
  }
  if (rules.environment === 'staging' && number.msisdn.endsWith(STAGING_POSTPAID_SUFFIX)) {
    return numberProblem('not_prepaid', 'The number is not a prepaid subscription and cannot be topped up.');
  }
  return { ok: true, msisdn: number.msisdn, national: number.national, operator, ported: portedOperator !== undefined };
}
