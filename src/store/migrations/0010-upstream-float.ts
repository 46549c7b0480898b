import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * What each upstream said of our credit with it, shared by every process: the last balance read, and
 * since when it has refused orders for want of credit (orders then wait instead of failing, /readyz
 * reports it, and it clears itself once the upstream accepts orders again).
 */
export function upstreamFloat(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('upstream_balances')
        .addColumn('connector', 'text', (c) => c.primaryKey())
        .addColumn('available', 'bigint')
        .addColumn('currency', 'text')
        .addColumn('checked_at', 'bigint')
        .addColumn('out_of_float_since', 'bigint')
        .execute();
    },
  };
}
