import { PostgresAdapter } from 'kysely';
import type { Db, Tx } from './database.js';

export type Dialect = 'sqlite' | 'postgres';

/**
 * The dialect a database handle (or a transaction of it) speaks. It is bound when the store is opened
 * and read back here, inside store/, by the few queries that differ: no caller passes it around.
 */
export const dialectOf = (db: Db | Tx): Dialect => (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');
