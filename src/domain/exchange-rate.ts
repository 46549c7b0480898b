/** An EUR/RON rate as stored: set by hand or fetched from the National Bank of Romania. */
export interface ExchangeRate {
  readonly id: string;
  /** Units of 0.0001 RON per EUR. */
  readonly eurRon: bigint;
  readonly source: string;
  /** The day the source published the rate (YYYY-MM-DD), when known. */
  readonly rateDate: string | null;
  readonly storedAt: number;
}
