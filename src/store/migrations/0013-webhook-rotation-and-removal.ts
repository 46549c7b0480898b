import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Customers manage their endpoints over HTTP: a rotated secret keeps signing beside the new one for 24
 * hours (so a receiver can switch without losing a delivery), and a removed endpoint is kept, under a
 * name no customer can give, for its deliveries' history.
 */
export function webhookRotationAndRemoval(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret', 'text').execute();
      await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret_until', 'bigint').execute();
      await db.schema.alterTable('webhook_endpoints').addColumn('deleted_at', 'bigint').execute();
    },
  };
}
