import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Fixed-window request counters shared by every API process (when Redis is not configured). */
export function rateLimits(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('rate_limit_counters')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .execute();
    },
  };
}
