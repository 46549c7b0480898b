import type { Currency } from './currency.js';

/** Money received from a customer, credited to the account's balance. */
export interface Deposit {
  readonly id: string;
  readonly accountId: string;
  /** Minor units of the account's currency. */
  readonly amount: bigint;
  readonly currency: Currency;
  readonly reference: string | null;
  readonly createdAt: number;
}
