import { num } from './convert.js';
import type { Db } from './database.js';

/** A request count in a fixed window, and when that window ends (epoch ms). */
export interface WindowCount {
  readonly count: number;
  readonly resetAt: number;
}

export type CountRequest = (key: string, now: number, windowMs: number) => Promise<WindowCount>;


const MEMORY_WINDOWS_MAX = 100_000;

/**
 * SQLite serves one process, so its counters live in that process's memory: exact, and no write per
 * request. Windows past are replaced as keys come back; the map is bounded, forgetting the key counted
 * longest ago when full.
 */
export function memoryCounter(): CountRequest {
  const windows = new Map<string, { start: number; count: number }>();
  return async (key, now, windowMs) => {
    const start = Math.floor(now / windowMs) * windowMs;
    const current = windows.get(key);
    const next = current && current.start === start ? { start, count: current.count + 1 } : { start, count: 1 };
    // Re-inserted, so the map's order is least recently counted first: when full, the oldest goes.
    windows.delete(key);
    if (windows.size >= MEMORY_WINDOWS_MAX) windows.delete(windows.keys().next().value!);
    windows.set(key, next);
    return { count: next.count, resetAt: start + windowMs };
  };
}

/**
 * PostgreSQL serves many processes: one statement (an upsert) counts a request in the shared table,
 * so concurrent API processes never lose a count.
 */
export function databaseCounter(db: Db): CountRequest {
  return async (key, now, windowMs) => {
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
}

export async function deleteOldCounters(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('rate_limit_counters').where('window_start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
