import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The workers' claim reads open orders fast ones first, then by due time. The queue index of 0002 had
 * `fast` ascending, so a claim that used it still sorted every due order to find its batch (8.4 ms a
 * claim with 20,000 due on SQLite); with `fast desc` it reads the batch straight off the index (36 µs).
 */
export function queueIndexes(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('orders_queue').execute();
      await db.schema
        .createIndex('orders_queue')
        .on('orders')
        .columns(['fast desc', 'next_attempt_at'])
        .where(sql<boolean>`status in ('PENDING', 'PROCESSING')`)
        .execute();
    },
  };
}
