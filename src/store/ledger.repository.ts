import type { Insertable } from 'kysely';
import type { LedgerEntry } from '../domain/ledger-entry.js';
import type { Db, Tx } from './database.js';
import { preparedInsert } from './prepared.js';
import type { LedgerEntriesTable } from './schema.js';

// The id is the database's (an identity column), never ours.
type LedgerRow = Omit<Insertable<LedgerEntriesTable>, 'id'>;

const LEDGER_COLUMNS = ['account_id', 'kind', 'amount', 'balance_after', 'deposit_id', 'order_id', 'created_at'] as const;

const insertLedgerRows = preparedInsert((db: Db, rows: LedgerRow[]) => db.insertInto('ledger_entries').values(rows), LEDGER_COLUMNS);

/** The ledger is append-only: there is no update or delete here, a correction is a new entry. */
export async function appendLedgerEntries(tx: Tx, entries: readonly LedgerEntry[]): Promise<void> {
  await insertLedgerRows.execute(
    tx,
    entries.map((e) => ({
      account_id: e.accountId,
      kind: e.kind,
      amount: e.amount,
      balance_after: e.balanceAfter,
      deposit_id: e.depositId ?? null,
      order_id: e.orderId ?? null,
      created_at: e.createdAt,
    })),
  );
}
