import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The ledger's promises held by the database itself, not only by the code that writes it: an order has
 * at most one debit and at most one refund (a second refund would give its money back twice), and the
 * entries of an order are found by an index (the audit joins every order to its entries).
 */
export function ledgerGuarantees(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const kind of ['recharge', 'refund'] as const) {
        await db.schema
          .createIndex(`ledger_entries_one_${kind}_per_order`)
          .on('ledger_entries')
          .column('order_id')
          .unique()
          .where(sql<boolean>`kind = ${sql.lit(kind)} and order_id is not null`)
          .execute();
      }
      await db.schema.createIndex('ledger_entries_order').on('ledger_entries').column('order_id').where(sql<boolean>`order_id is not null`).execute();
    },
  };
}
