import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import type { Dialect } from './dialect.js';
import { GroupCommitter } from './group-commit.js';
import { migrationsFor } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

export interface Store {
  readonly db: Db;
  readonly dialect: Dialect;
  /**
   * Runs `work` as one transaction: all of it commits, or none. On SQLite concurrent units share a
   * commit (group commit); on PostgreSQL each is its own transaction. `work` must use only `tx`.
   */
  transact<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs one statement that must be durable before the caller goes on but needs no transaction around
   * it. On SQLite it joins a group commit like `transact` (a commit of its own costs an fsync on the
   * event loop: requests with an Idempotency-Key ran at a third of the rate); on PostgreSQL it runs
   * alone, committed by itself, without BEGIN and COMMIT round trips. Never call it from inside a
   * `transact` unit: on SQLite it would wait for a commit that waits for it.
   */
  write<T>(work: (db: Db | Tx) => Promise<T>): Promise<T>;
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

/**
 * better-sqlite3 compiles a statement on every prepare(); Kysely prepares each query it runs. Reusing
 * the compiled statement for the same SQL text saves that work on every request.
 */
function cacheStatements(database: SQLite.Database): SQLite.Database {
  const prepare = database.prepare.bind(database);
  const cache = new Map<string, SQLite.Statement>();
  database.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      if (cache.size >= 2_000) cache.clear();
      statement = prepare(source);
      cache.set(source, statement);
    }
    return statement;
  }) as typeof database.prepare;
  return database;
}

function openSqlite(path: string): SQLite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  // WAL for concurrent readers; synchronous=FULL so an acknowledged order survives power loss.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.defaultSafeIntegers(true);
  return cacheStatements(database);
}

export function openStore(target: DatabaseTarget, options: StoreOptions = {}): Store {
  if (target.kind === 'sqlite') {
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqlite(target.path) }) });
    const committer = new GroupCommitter(db);
    const transact = <T>(work: (tx: Tx) => Promise<T>) => committer.transact(work);
    return { db, dialect: 'sqlite', transact, write: transact, close: () => db.destroy() };
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
  return { db, dialect: 'postgres', transact: (work) => db.transaction().execute(work), write: (work) => work(db), close: () => db.destroy() };
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
