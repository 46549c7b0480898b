import type { Tx } from './database.js';

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

/** The ledger is append-only: there is no update or delete here, a correction is a new entry. */
export async function appendLedgerEntries(tx: Tx, entries: readonly LedgerEntryInput[]): Promise<void> {
  if (entries.length === 0) return;
  await tx
    .insertInto('ledger_entries')
    .values(
      entries.map((e) => ({
        account_id: e.accountId,
        kind: e.kind,
        amount: e.amount,
        balance_after: e.balanceAfter,
        deposit_id: e.depositId ?? null,
        order_id: e.orderId ?? null,
        created_at: e.createdAt,
      })),
    )
    .execute();
}
