import { num } from './convert.js';
import type { Db } from './database.js';

/** A request count in a fixed window, and when that window ends (epoch ms). */
export interface WindowCount {
  readonly count: number;
  readonly resetAt: number;
}

export type CountRequest = (key: string, now: number, windowMs: number) => Promise<WindowCount>;

/** Request counters: `count` adds one and says how many; `peek` only says. */
export interface RequestCounters {
  readonly count: CountRequest;
  readonly peek: CountRequest;
}

const MEMORY_WINDOWS_MAX = 100_000;

/**
 * SQLite serves one process, so its counters live in that process's memory: exact, and no write per
 * request. Windows past are replaced as keys come back; the map is bounded, forgetting the key counted
 * longest ago when full.
 */
export function memoryCounters(): RequestCounters {
  const windows = new Map<string, { start: number; count: number }>();
  const peek: CountRequest = async (key, now, windowMs) => {
    const start = Math.floor(now / windowMs) * windowMs;
    const current = windows.get(key);
    return { count: current && current.start === start ? current.count : 0, resetAt: start + windowMs };
  };
  const count: CountRequest = async (key, now, windowMs) => {
    const start = Math.floor(now / windowMs) * windowMs;
    const current = windows.get(key);
    const next = current && current.start === start ? { start, count: current.count + 1 } : { start, count: 1 };
    // Re-inserted, so the map's order is least recently counted first: when full, the oldest goes.
    windows.delete(key);
    if (windows.size >= MEMORY_WINDOWS_MAX) windows.delete(windows.keys().next().value!);
    windows.set(key, next);
    return { count: next.count, resetAt: start + windowMs };
  };
  return { count, peek };
}

/**
 * PostgreSQL serves many processes: one statement (an upsert) counts a request in the shared table,
 * so concurrent API processes never lose a count.
 */
export function databaseCounters(db: Db): RequestCounters {
  const peek: CountRequest = async (key, now, windowMs) => {
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const row = await db.selectFrom('rate_limit_counters').select('count').where('key', '=', key).where('window_start', '=', windowStart).executeTakeFirst();
    return { count: row ? num(row.count) : 0, resetAt: windowStart + windowMs };
  };
  const count: CountRequest = async (key, now, windowMs) => {
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const row = await db
      .insertInto('rate_limit_counters')
      .values({ key, window_start: windowStart, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          count: eb
            .case()
            .when('rate_limit_counters.window_start', '=', windowStart)
            .then(eb('rate_limit_counters.count', '+', 1))
            .else(1)
            .end(),
          window_start: windowStart,
        })),
      )
      .returning(['count', 'window_start'])
      .executeTakeFirstOrThrow();
    return { count: num(row.count), resetAt: num(row.window_start) + windowMs };
  };
  return { count, peek };
}

export async function deleteOldCounters(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('rate_limit_counters').where('window_start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
