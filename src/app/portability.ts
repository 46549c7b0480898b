import { AppError, type FieldProblem } from '../domain/errors.js';
import { isOperator } from '../domain/operators.js';
import { parseRomanianMobile } from '../domain/phone-number.js';
import { upsertPortedNumbers } from '../store/ported-numbers.repository.js';
import type { Deps } from './deps.js';

const unquote = (field: string) => field.trim().replace(/^"(.*)"$/, '$1').trim();

/**
 * Imports a ported-numbers file: one `number,operator` row per line, an optional header line, blank
 * lines ignored. Every row is checked first and the file is imported whole or not at all.
 */
export async function importPortedNumbers(deps: Deps, csv: string): Promise<{ imported: number }> {
  const rows: Array<{ msisdn: string; operator: string }> = [];
  const problems: FieldProblem[] = [];
  csv.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    const [number = '', operator = '', ...rest] = line.split(',').map(unquote);
    if (index === 0 && !/\d/.test(number)) return; // a header such as "number,operator"
    const where = `line ${index + 1}`;
    const parsed = parseRomanianMobile(number);
    if (rest.length > 0) problems.push({ field: where, code: 'invalid_row', message: `${where}: expected "number,operator"` });
    else if (!parsed.ok) problems.push({ field: where, code: parsed.code, message: `${where}: ${parsed.message}` });
    else if (!isOperator(operator.toLowerCase())) {
      problems.push({ field: where, code: 'unknown_operator', message: `${where}: unknown operator "${operator}"` });
    } else rows.push({ msisdn: parsed.msisdn, operator: operator.toLowerCase() });
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).map((p) => p.message).join('; ');
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
    throw new AppError('validation_failed', `Nothing imported: ${shown}${more}.`, problems);
  }
  await deps.store.transact((tx) => upsertPortedNumbers(tx, rows, deps.clock.now()));
  return { imported: rows.length };
}
