import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Each upstream's catalogue for Romanian operators, as `topup upstream products sync` last read it. */
export function upstreamProducts(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('upstream_products')
        .addColumn('connector', 'text', (c) => c.notNull())
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('operator', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('side', 'text', (c) => c.notNull().check(sql`side in ('source', 'destination')`))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('fixed', 'ranged')`))
        .addColumn('amount', 'bigint')
        .addColumn('min', 'bigint')
        .addColumn('max', 'bigint')
        .addColumn('increment', 'bigint')
        .addColumn('synced_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('upstream_products_pk', ['connector', 'product_id'])
        .execute();
    },
  };
}
