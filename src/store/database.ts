import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import type { Dialect } from './dialect.js';
import { migrationsFor } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

export interface Store {
  readonly db: Db;
  readonly dialect: Dialect;
  close(): Promise<void>;
}

export interface StoreOptions {
  readonly poolSize?: number;
  /** PostgreSQL: a statement running longer is cancelled (and the request answered 503). */
  readonly statementTimeoutMs?: number;
}

const INT8_OID = 20;

/** node-postgres returns int8 as text by default; money and counts must come back exact, as BigInt. */
const exactPgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => BigInt(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

function openSqlite(path: string): SQLite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  // WAL for concurrent readers; synchronous=FULL so an acknowledged order survives power loss.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.defaultSafeIntegers(true);
  return database;
}

export function openStore(target: DatabaseTarget, options: StoreOptions = {}): Store {
  if (target.kind === 'sqlite') {
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqlite(target.path) }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: options.poolSize ?? 10,
    types: exactPgTypes,
    // Fail fast while the database is unreachable (503), instead of queueing requests forever.
    connectionTimeoutMillis: 5_000,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
  });
  // A client losing its connection (the database restarting, a network cut) must not crash the
  // process: the failing query rejects on its own, the pool drops the client and reconnects later.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/** Applies pending migrations (under the migrator's lock) and returns the names applied now. */
export async function migrate(store: Store): Promise<string[]> {
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrationsFor(store.dialect) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
