import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The order listing sorts by (created_at, array_position, id), newest first: an index in exactly that
 * order lets the first page of an account with a million orders be read without sorting any of them.
 */
export function orderListingIndex(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('orders_account_listing').on('orders').columns(['account_id', 'created_at', 'array_position', 'id']).execute();
      await db.schema.dropIndex('orders_account_created').execute();
    },
  };
}
