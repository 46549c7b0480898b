import { num } from './convert.js';
import type { Db } from './database.js';

/**
 * Counts one request against `key` in the fixed window that contains `now`, in one statement (an
 * upsert), so concurrent API processes never lose a count. Returns the count and when the window ends.
 */
export async function countRequest(db: Db, key: string, now: number, windowMs: number): Promise<{ count: number; resetAt: number }> {
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
}

export async function deleteOldCounters(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('rate_limit_counters').where('window_start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
