import type { Insertable } from 'kysely';
import type { Db, Tx } from './database.js';
import { prepared } from './prepared.js';
import type { LedgerEntriesTable } from './schema.js';

export type LedgerKind = 'deposit' | 'recharge' | 'refund';

export interface LedgerEntryInput {
  readonly accountId: string;
  readonly kind: LedgerKind;
  /** Signed minor units: credits positive, debits negative. */
  readonly amount: bigint;
  readonly balanceAfter: bigint;
  readonly depositId?: string;
  readonly orderId?: string;
  readonly createdAt: number;
}

type LedgerRow = Insertable<LedgerEntriesTable>;

const insertLedgerRows = prepared((db: Db, p: { rows: LedgerRow[] }, size) =>
  db.insertInto('ledger_entries').values(
    Array.from({ length: size }, (_, i) => {
      const r = p.rows[i]!;
      return { account_id: r.account_id, kind: r.kind, amount: r.amount, balance_after: r.balance_after, deposit_id: r.deposit_id, order_id: r.order_id, created_at: r.created_at };
    }),
  ),
);

/** Rows per INSERT: under both dialects' bind-parameter limits, and a bounded set of compiled shapes. */
const INSERT_CHUNK = 250;

/** The ledger is append-only: there is no update or delete here, a correction is a new entry. */
export async function appendLedgerEntries(tx: Tx, entries: readonly LedgerEntryInput[]): Promise<void> {
  for (let i = 0; i < entries.length; i += INSERT_CHUNK) {
    const rows = entries.slice(i, i + INSERT_CHUNK).map((e) => ({
      account_id: e.accountId,
      kind: e.kind,
      amount: e.amount,
      balance_after: e.balanceAfter,
      deposit_id: e.depositId ?? null,
      order_id: e.orderId ?? null,
      created_at: e.createdAt,
    }));
    await insertLedgerRows.execute(tx, { rows }, rows.length);
  }
}
