import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Fulfilment through real upstreams: every attempt at an order with its own reference, written before
 * the request leaves (so a crash after sending still knows what to look up), with what the upstream
 * said, its transaction id and its cost; and the settlements a person made of orders no upstream would
 * answer for (the audit trail of `topup orders resolve`).
 */
export function upstreamAttempts(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('upstream_attempts')
        .addColumn('reference', 'text', (c) => c.primaryKey())
        .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('connector', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('sending', 'open', 'succeeded', 'failed', 'not_performed')`))
        .addColumn('upstream_id', 'text')
        .addColumn('operator_reference', 'text')
        .addColumn('cost', 'bigint')
        .addColumn('cost_currency', 'text')
        .addColumn('detail', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('upstream_attempts_order_number', ['order_id', 'number'])
        .execute();
      // At most one attempt of an order is open: a second one could top the phone up twice.
      await db.schema
        .createIndex('upstream_attempts_one_open')
        .on('upstream_attempts')
        .column('order_id')
        .unique()
        .where(sql<boolean>`state in ('sending', 'open')`)
        .execute();
      // Reconciliation reads one connector's attempts over a period.
      await db.schema.createIndex('upstream_attempts_connector').on('upstream_attempts').columns(['connector', 'created_at']).execute();

      await db.schema
        .createTable('order_resolutions')
        .addColumn('order_id', 'text', (c) => c.primaryKey().references('orders.id'))
        .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('SUCCESS', 'FAILED')`))
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('previous_status', 'text', (c) => c.notNull())
        .addColumn('resolved_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
