import { CompiledQuery } from 'kysely';
import type { Db, Tx } from './database.js';

type Job = {
  readonly work: (tx: Tx) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
};

const MAX_BATCH = 256;

/**
 * Longest the event loop is held by one batch's units before it is let go once (the transaction stays
 * open meanwhile; other queries wait for the connection as they would anyway). Node accepts one new
 * connection per turn of the event loop (libuv/libuv#3696), so a batch of fifty 100-entry requests
 * (~200 ms) held back every new client's first request by a turn each: seconds for the fiftieth.
 */
const SLICE_MS = 10;

// Fixed statements, compiled once: they run around every unit.
const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release savepoint unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint unit');

const yieldToEventLoop = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Group commit for SQLite, where every commit waits for an fsync (synchronous=FULL) and one writer
 * works at a time. Transactions that arrive while one commits are run together in the next database
 * transaction, each inside its own savepoint: a unit that fails is rolled back alone, and every unit
 * learns its outcome only after the shared commit is durable. Callers see exactly the semantics of
 * one transaction each; the disk sees one fsync per batch instead of one per request.
 */
export class GroupCommitter {
  private readonly queue: Job[] = [];
  private flushing = false;

  constructor(private readonly db: Db) {}

  transact<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        // better-sqlite3 runs a whole transaction, fsync included, without yielding to the event
        // loop. Yield once before each batch, so requests that arrived meanwhile are read and join it.
        await yieldToEventLoop();
        const batch = this.queue.splice(0, MAX_BATCH);
        const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
        try {
          await this.db.connection().execute(async (connection) => {
            // BEGIN IMMEDIATE takes the write lock at once, waiting (busy_timeout) while another process
            // holds it: a deferred BEGIN that reads first fails with SQLITE_BUSY when it tries to write
            // while another process writes (`serve --no-worker` and `topup worker` on one file).
            await connection.executeQuery(BEGIN_IMMEDIATE);
            try {
              const tx = connection as unknown as Tx;
              let sliceStarted = performance.now();
              for (const job of batch) {
                if (performance.now() - sliceStarted > SLICE_MS) {
                  await yieldToEventLoop();
                  sliceStarted = performance.now();
                }
                await tx.executeQuery(SAVEPOINT);
                try {
                  const value = await job.work(tx);
                  await tx.executeQuery(RELEASE);
                  outcomes.push({ ok: true, value });
                } catch (error) {
                  await tx.executeQuery(ROLLBACK_TO);
                  await tx.executeQuery(RELEASE);
                  outcomes.push({ ok: false, error });
                }
              }
              await connection.executeQuery(COMMIT);
            } catch (error) {
              await connection.executeQuery(ROLLBACK).catch(() => {});
              throw error;
            }
          });
        } catch (error) {
          // The batch did not commit: nothing of it is stored, and every unit says so.
          for (const job of batch) job.reject(error);
          continue;
        }
        batch.forEach((job, i) => {
          const outcome = outcomes[i]!;
          if (outcome.ok) job.resolve(outcome.value);
          else job.reject(outcome.error);
        });
      }
    } finally {
      this.flushing = false;
    }
  }
}
