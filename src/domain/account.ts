import type { Currency } from './currency.js';

/** A customer account: its prepaid credit and the totals kept in the transactions that move it. */
export interface Account {
  readonly id: string;
  readonly name: string;
  readonly currency: Currency;
  /** Minor units of the account's currency; never below zero. */
  readonly balance: bigint;
  readonly totalDeposits: bigint;
  /** Over the orders that are not FAILED, in the account's currency. */
  readonly orders: {
    readonly count: bigint;
    readonly amountNet: bigint;
    readonly amountGross: bigint;
    readonly feeNet: bigint;
    readonly feeGross: bigint;
  };
  readonly createdAt: number;
}

/** The figures of the account summary (DESIGN.md), in minor units of the account's currency. */
export interface AccountFigures {
  readonly totalDeposits: bigint;
  readonly totalConsumed: bigint;
  readonly creditRemaining: bigint;
  readonly count: bigint;
  readonly totalAmountNet: bigint;
  readonly totalAmountGross: bigint;
  readonly totalFastRechargeFeeNet: bigint;
  readonly totalFastRechargeFeeGross: bigint;
  readonly totalVat: bigint;
  readonly totalDeducted: bigint;
}

/**
 * totalConsumed = totalDeposits − creditRemaining; totalDeducted = totalAmountGross +
 * totalFastRechargeFeeGross; totalVat = totalDeducted − totalAmountNet − totalFastRechargeFeeNet.
 */
export function accountFigures(account: Account): AccountFigures {
  const o = account.orders;
  const totalDeducted = o.amountGross + o.feeGross;
  return {
    totalDeposits: account.totalDeposits,
    totalConsumed: account.totalDeposits - account.balance,
    creditRemaining: account.balance,
    count: o.count,
    totalAmountNet: o.amountNet,
    totalAmountGross: o.amountGross,
    totalFastRechargeFeeNet: o.feeNet,
    totalFastRechargeFeeGross: o.feeGross,
    totalVat: totalDeducted - o.amountNet - o.feeNet,
    totalDeducted,
  };
}
