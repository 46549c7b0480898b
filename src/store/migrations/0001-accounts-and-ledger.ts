import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { identityColumn } from './columns.js';

/** Accounts, keys, deposits, the ledger, remembered number checks and ported numbers. */
export function accountsAndLedger(dialect: Dialect) {
  const identity = identityColumn(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('RON', 'EUR')`))
        .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`balance >= 0`))
        .addColumn('total_deposits', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('orders_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('orders_amount_net', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('orders_amount_gross', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('orders_fee_net', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('orders_fee_gross', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('environment', 'text', (c) => c.notNull())
        .addColumn('display_prefix', 'text', (c) => c.notNull())
        .addColumn('digest', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

      await db.schema
        .createTable('deposits')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('reference', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('deposits_account_created').on('deposits').columns(['account_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('ledger_entries')
        .addColumn('id', identity.type, identity.build)
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('deposit', 'recharge', 'refund')`))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('balance_after', 'bigint', (c) => c.notNull().check(sql`balance_after >= 0`))
        .addColumn('deposit_id', 'text')
        .addColumn('order_id', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ledger_entries_account').on('ledger_entries').columns(['account_id', 'id']).execute();

      await db.schema
        .createTable('number_checks')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('msisdn', 'text', (c) => c.notNull())
        .addColumn('operator', 'text', (c) => c.notNull())
        .addColumn('checked_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('number_checks_pk', ['account_id', 'msisdn'])
        .execute();

      await db.schema
        .createTable('ported_numbers')
        .addColumn('msisdn', 'text', (c) => c.primaryKey())
        .addColumn('operator', 'text', (c) => c.notNull())
        .addColumn('imported_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
