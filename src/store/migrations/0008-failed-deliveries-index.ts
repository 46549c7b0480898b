import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Deliveries given up are few and matter: operators alert on their count and customers list them to
 * send again. A partial index holds only those, so neither reads the delivered ones (nearly all).
 */
export function failedDeliveriesIndex(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('webhook_events_failed')
        .on('webhook_events')
        .columns(['account_id', 'created_at'])
        .where(sql<boolean>`status = 'failed'`)
        .execute();
    },
  };
}
