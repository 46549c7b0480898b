import type { ColumnDefinitionBuilder } from 'kysely';
import type { Dialect } from '../dialect.js';

/** An increasing integer key: it orders rows (ledger entries, attempts) even within one millisecond. */
export const identityColumn = (dialect: Dialect) => ({
  type: dialect === 'postgres' ? ('bigint' as const) : ('integer' as const),
  build: (col: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement(),
});
