import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import type { Dialect } from './dialect.js';
import { GroupCommitter } from './group-commit.js';
import { NestedUnitOfWorkError } from './errors.js';
import { migrationsFor } from './migrations/index.js';
import { listenForWork, type ListenState, type WorkTopic } from './notify.js';
import { databaseCounter, memoryCounter, type CountRequest } from './request-counters.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

export interface Store {
  /** For reads, and for single statements that need no unit of work. */
  readonly db: Db;
  /**
   * Runs `work` as one transaction: all of it commits, or none. On SQLite concurrent units share a
   * commit (group commit); on PostgreSQL each is its own transaction. `work` must use only `tx`, and
   * wait for nothing but its own statements. A unit never nests: called from inside one, `transact`
   * (like `write`) rejects with `NestedUnitOfWorkError`.
   */
  transact<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs one statement that must be durable before the caller goes on but needs no transaction around
   * it. On SQLite it joins a group commit like `transact` (a commit of its own costs an fsync on the
   * event loop: requests with an Idempotency-Key ran at a third of the rate); on PostgreSQL it runs
   * alone, committed by itself, without BEGIN and COMMIT round trips.
   *
   * Never from inside a `transact` unit: on SQLite it would wait for a commit that waits for it, and on
   * PostgreSQL it would escape the unit's transaction. It rejects with `NestedUnitOfWorkError` there.
   */
  write<T>(work: (db: Db | Tx) => Promise<T>): Promise<T>;
  /**
   * Calls `onWork` whenever any process commits work for the workers. On PostgreSQL a dedicated
   * connection LISTENs (and reconnects after a drop); SQLite serves one process, where the in-process
   * signal already says it all, so there is nothing to listen to.
   */
  listenForWork(
    onWork: (topic: WorkTopic) => void,
    onError: (error: unknown) => void,
    onState?: (state: ListenState) => void,
  ): Promise<{ close(): Promise<void> }>;
  /** Counts a request in the fixed window containing `now`, for every process using this store (SQLite serves one). */
  readonly countRequest: CountRequest;
  /** Applies pending migrations (under the migrator's lock) and returns the names applied now. */
  migrate(): Promise<string[]>;
  /** Resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  readonly poolSize?: number;
  /** PostgreSQL: a statement running longer is cancelled (and the request answered 503). */
  readonly statementTimeoutMs?: number;
  /** PostgreSQL: an idle pooled connection failed (the pool replaces it); for the log. */
  readonly onConnectionError?: (error: unknown) => void;
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

function openSqlite(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  // WAL for concurrent readers; synchronous=FULL so an acknowledged order survives power loss.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.defaultSafeIntegers(true);
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: cacheStatements(database) }) });
}

/**
 * The frame every unit's work runs under. A call whose (async) stack passes through it was made from
 * inside a unit; V8 keeps awaited async frames in stack traces at no cost until one is captured.
 */
async function runUnitOfWork<T>(work: (tx: Tx) => Promise<T>, tx: Tx, units: { running: number }): Promise<T> {
  units.running++;
  try {
    return await work(tx);
  } finally {
    units.running--;
  }
}

const UNIT_FRAME = runUnitOfWork.name;
/** Deeper than any call chain of ours from a unit's work to a store call. */
const STACK_DEPTH = 40;

function calledInsideUnit(): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = STACK_DEPTH;
  const probe: { stack?: string } = {};
  Error.captureStackTrace(probe, calledInsideUnit);
  Error.stackTraceLimit = limit;
  return probe.stack?.includes(UNIT_FRAME) ?? false;
}

/**
 * Starts a unit (or a write) unless the caller is itself inside a unit, which would deadlock on SQLite
 * (a unit waiting for the commit of its own batch) and escape the transaction on PostgreSQL. The stack
 * is read only while some unit runs: on SQLite, where units run one after another within a turn of the
 * event loop, almost never; on PostgreSQL under load, once per call (about 8 µs).
 */
function unlessNested<T>(units: { running: number }, start: () => Promise<T>): Promise<T> {
  if (units.running > 0 && calledInsideUnit()) return Promise.reject(new NestedUnitOfWorkError());
  return start();
}

export function openStore(target: DatabaseTarget, options: StoreOptions = {}): Store {
  const db = target.kind === 'sqlite' ? openSqlite(target.path) : openPostgres(target.url, options);
  const units = { running: 0 };
  const common = {
    db,
    migrate: () => migrate(db, target.kind),
    ping: async () => void (await sql`select 1`.execute(db)),
    close: () => db.destroy(),
  };
  if (target.kind === 'sqlite') {
    const committer = new GroupCommitter(db);
    return {
      ...common,
      transact: (work) => unlessNested(units, () => committer.transact((tx) => runUnitOfWork(work, tx, units))),
      write: (work) => unlessNested(units, () => committer.transact(work)),
      listenForWork: async () => ({ close: async () => {} }),
      countRequest: memoryCounter(),
    };
  }
  return {
    ...common,
    transact: (work) => unlessNested(units, () => db.transaction().execute((tx) => runUnitOfWork(work, tx, units))),
    write: (work) => unlessNested(units, () => work(db)),
    listenForWork: (onWork, onError, onState) => listenForWork(target.url, onWork, onError, onState),
    countRequest: databaseCounter(db),
  };
}

function openPostgres(url: string, options: StoreOptions): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: exactPgTypes,
    // Fail fast while the database is unreachable (503), instead of queueing requests forever.
    connectionTimeoutMillis: 5_000,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
  });
  // A client losing its connection (the database restarting, a network cut) must not crash the
  // process: the failing query rejects on its own, the pool drops the client and reconnects later.
  // The error is reported, never swallowed.
  const report = options.onConnectionError ?? (() => {});
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

async function migrate(db: Db, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(dialect) } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
