import type { Principal } from '../domain/api-key.js';
import { decideEligibility, type EligibleNumber } from '../domain/number-eligibility.js';
import { isOperator } from '../domain/operators.js';
import { parseRomanianMobile, type NumberProblem } from '../domain/phone-number.js';
import { rememberNumberCheck } from '../store/number-checks.repository.js';
import { findPortedOperator } from '../store/ported-numbers.repository.js';
import type { Deps } from './deps.js';

/**
 * Checks whether a number can be topped up and, when it can, remembers the check for the account:
 * that memory is what makes the number rechargeable (DESIGN.md: the check is mandatory).
 */
export async function checkNumber(deps: Deps, principal: Principal, rawNumber: string): Promise<EligibleNumber | NumberProblem> {
  const parsed = parseRomanianMobile(rawNumber);
  if (!parsed.ok) return parsed;
  // One unit from the read to the write: on SQLite it queues once for a group commit, instead of once
  // for the connection and again for the commit, and the check stored matches the porting it read.
  return deps.store.transact(async (tx) => {
    const ported = await findPortedOperator(tx, parsed.msisdn);
    const decision = decideEligibility(parsed, ported !== undefined && isOperator(ported) ? ported : undefined, {
      environment: deps.config.environment,
      operators: deps.config.operators,
    });
    if (decision.ok) {
      await rememberNumberCheck(tx, { accountId: principal.accountId, msisdn: decision.msisdn, operator: decision.operator, checkedAt: deps.clock.now() });
    }
    return decision;
  });
}
