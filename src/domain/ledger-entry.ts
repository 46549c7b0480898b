export type LedgerKind = 'deposit' | 'recharge' | 'refund';

/**
 * One movement of an account's balance. The ledger is append-only: a correction is a new entry, and
 * the balance always equals the sum of the entries.
 */
export interface LedgerEntry {
  readonly accountId: string;
  readonly kind: LedgerKind;
  /** Signed minor units: credits positive, debits negative. */
  readonly amount: bigint;
  readonly balanceAfter: bigint;
  readonly depositId?: string;
  readonly orderId?: string;
  readonly createdAt: number;
}
