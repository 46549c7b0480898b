import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Exchange rates, recharge orders, idempotency records and the simulated operator's own records. */
export function orders(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('exchange_rates')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('eur_ron', 'bigint', (c) => c.notNull().check(sql`eur_ron > 0`))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('rate_date', 'text')
        .addColumn('stored_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('exchange_rates_stored').on('exchange_rates').column('stored_at').execute();

      // Orders placed in all (FAILED included), so an unfiltered order listing counts in O(1).
      await db.schema.alterTable('accounts').addColumn('orders_placed', 'bigint', (c) => c.notNull().defaultTo(0)).execute();

      await db.schema
        .createTable('orders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('array_position', 'integer', (c) => c.notNull())
        .addColumn('msisdn', 'text', (c) => c.notNull())
        .addColumn('operator', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
        .addColumn('fast', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('eur_ron_rate', 'bigint', (c) => c.notNull())
        .addColumn('vat_rate', 'bigint', (c) => c.notNull())
        .addColumn('fast_fee', 'bigint', (c) => c.notNull())
        .addColumn('amount_ron', 'bigint', (c) => c.notNull())
        .addColumn('fast_fee_ron', 'bigint', (c) => c.notNull())
        .addColumn('net_ron', 'bigint', (c) => c.notNull())
        .addColumn('gross_ron', 'bigint', (c) => c.notNull())
        .addColumn('amount_net', 'bigint', (c) => c.notNull())
        .addColumn('amount_gross', 'bigint', (c) => c.notNull())
        .addColumn('fee_net', 'bigint', (c) => c.notNull())
        .addColumn('fee_gross', 'bigint', (c) => c.notNull())
        .addColumn('deduction', 'bigint', (c) => c.notNull().check(sql`deduction > 0`))
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDING', 'PROCESSING', 'SUCCESS', 'FAILED')`))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        // While PROCESSING, next_attempt_at is when the claim expires: one "due" column serves both.
        .addColumn('claimed_by', 'text')
        .addColumn('operator_reference', 'text')
        .addColumn('failure_reason', 'text')
        .addColumn('passthrough', 'text')
        .addColumn('document_id', 'text')
        .addColumn('webhook_name', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('orders_account_created').on('orders').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('orders_account_msisdn').on('orders').columns(['account_id', 'msisdn', 'created_at']).execute();
      await db.schema.createIndex('orders_account_document').on('orders').columns(['account_id', 'document_id']).execute();
      await db.schema.createIndex('orders_account_status').on('orders').columns(['account_id', 'status', 'created_at']).execute();
      // The workers' queue: open orders by due time, fast ones first.
      await db.schema
        .createIndex('orders_queue')
        .on('orders')
        .columns(['fast', 'next_attempt_at'])
        .where(sql<boolean>`status in ('PENDING', 'PROCESSING')`)
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('running', 'done')`))
        .addColumn('status_code', 'integer')
        .addColumn('response', 'text')
        .addColumn('locked_until', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();

      // The staging operator's own books: one row per top-up it performed, keyed by our rechargeId,
      // so asking it "did you already do this one?" has a true answer across restarts.
      await db.schema
        .createTable('simulator_topups')
        .addColumn('recharge_id', 'text', (c) => c.primaryKey())
        .addColumn('msisdn', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('reference', 'text', (c) => c.notNull())
        .addColumn('requests', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
