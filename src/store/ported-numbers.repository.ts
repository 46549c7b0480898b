import type { Db, Tx } from './database.js';

export async function findPortedOperator(db: Db, msisdn: string): Promise<string | undefined> {
  const row = await db.selectFrom('ported_numbers').select('operator').where('msisdn', '=', msisdn).executeTakeFirst();
  return row?.operator;
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
  const rows = await db.selectFrom('ported_numbers').select(['msisdn', 'operator']).where('msisdn', 'in', [...new Set(msisdns)]).execute();
  return new Map(rows.map((r) => [r.msisdn, r.operator]));
}
