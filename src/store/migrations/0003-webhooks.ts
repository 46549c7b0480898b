import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { identityColumn } from './columns.js';

/** Webhook endpoints, the event outbox written with each order's final status, and every attempt. */
export function webhooks(dialect: Dialect) {
  const identity = identityColumn(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('disabled_at', 'bigint')
        .addColumn('disabled_reason', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('webhook_endpoints_account_name', ['account_id', 'name'])
        .execute();

      await db.schema
        .createTable('webhook_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id'))
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        // While a delivery is under way, when its claim expires (as for orders).
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('claimed_by', 'text')
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('delivered_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('webhook_events_queue')
        .on('webhook_events')
        .column('next_attempt_at')
        .where(sql<boolean>`status = 'pending'`)
        .execute();
      await db.schema.createIndex('webhook_events_account').on('webhook_events').columns(['account_id', 'created_at']).execute();
      await db.schema.createIndex('webhook_events_order').on('webhook_events').column('order_id').execute();

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', identity.type, identity.build)
        .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id'))
        .addColumn('attempted_at', 'bigint', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('latency_ms', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_attempts_event').on('webhook_attempts').columns(['event_id', 'id']).execute();
    },
  };
}
