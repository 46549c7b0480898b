import type { OrderStatus } from './order-status.js';

export const DAY_MS = 86_400_000;
/** The longest history one activity request may ask for. */
export const MAX_ACTIVITY_DAYS = 90;

/** Orders of one UTC day in one status (listed by day, then status), and what they were charged (FAILED ones were refunded). */
export interface DailyActivity {
  /** Days since 1970-01-01 (UTC). */
  readonly day: number;
  readonly status: OrderStatus;
  readonly orders: number;
  readonly deduction: bigint;
}

/** The UTC day an instant falls on, as days since the epoch. */
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);
