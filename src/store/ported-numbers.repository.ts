import type { Db, Tx } from './database.js';
import { prepared } from './prepared.js';

const portedOperators = prepared((db: Db, p: { msisdns: string[] }, size) =>
  db.selectFrom('ported_numbers').select(['msisdn', 'operator']).where('msisdn', 'in', Array.from({ length: size }, (_, i) => p.msisdns[i]!)),
);

export async function findPortedOperator(db: Db | Tx, msisdn: string): Promise<string | undefined> {
  return (await findPortedOperators(db, [msisdn])).get(msisdn);
}

const CHUNK = 500;

/** Inserts or replaces ported numbers, in chunks that stay under both dialects' bind-parameter limits. */
export async function upsertPortedNumbers(
  tx: Tx,
  rows: ReadonlyArray<{ msisdn: string; operator: string }>,
  importedAt: number,
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await tx
      .insertInto('ported_numbers')
      .values(rows.slice(i, i + CHUNK).map((r) => ({ msisdn: r.msisdn, operator: r.operator, imported_at: importedAt })))
      .onConflict((oc) => oc.column('msisdn').doUpdateSet((eb) => ({ operator: eb.ref('excluded.operator'), imported_at: importedAt })))
      .execute();
  }
}

export async function findPortedOperators(db: Db | Tx, msisdns: readonly string[]): Promise<Map<string, string>> {
  if (msisdns.length === 0) return new Map();
  const unique = [...new Set(msisdns)];
  const rows = await portedOperators.execute(db, { msisdns: unique }, unique.length);
  return new Map(rows.map((r) => [r.msisdn, r.operator]));
}
