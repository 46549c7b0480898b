import { decideEligibility } from '../domain/number-eligibility.js';
import { isOperator } from '../domain/operators.js';
import { parseRomanianMobile, type NumberProblemCode } from '../domain/phone-number.js';
import { rememberNumberCheck } from '../store/number-checks.repository.js';
import { findPortedOperator } from '../store/ported-numbers.repository.js';
import type { Principal } from './api-keys.js';
import type { Deps } from './deps.js';

export type NumberCheckResult =
  | { isValid: true; operator: string; sanitizedNumber: string; national: string; ported: boolean }
  | { isValid: false; message: string; code: NumberProblemCode };

/**
 * Checks whether a number can be topped up and, when it can, remembers the check for the account:
 * that memory is what makes the number rechargeable (DESIGN.md: the check is mandatory).
 */
export async function checkNumber(deps: Deps, principal: Principal, rawNumber: string): Promise<NumberCheckResult> {
  const parsed = parseRomanianMobile(rawNumber);
  if (!parsed.ok) return { isValid: false, message: parsed.message, code: parsed.code };
  // One unit from the read to the write: on SQLite it queues once for a group commit, instead of once
  // for the connection and again for the commit, and the check stored matches the porting it read.
  return deps.store.transact(async (tx): Promise<NumberCheckResult> => {
    const ported = await findPortedOperator(tx, parsed.msisdn);
    const decision = decideEligibility(parsed, ported !== undefined && isOperator(ported) ? ported : undefined, {
      environment: deps.config.environment,
      operators: deps.config.operators,
    });
    if (!decision.ok) return { isValid: false, message: decision.message, code: decision.code };
    await rememberNumberCheck(tx, { accountId: principal.accountId, msisdn: decision.msisdn, operator: decision.operator, checkedAt: deps.clock.now() });
    return {
      isValid: true,
      operator: decision.operator,
      sanitizedNumber: decision.msisdn,
      national: decision.national,
      ported: decision.ported,
    };
  });
}
