import { Type, type Static } from '@sinclair/typebox';
import { accountFigures, type Account } from '../domain/account.js';
import type { Deposit } from '../domain/deposit.js';
import { ENVIRONMENTS } from '../domain/environment.js';
import { toJsonNumber } from '../domain/money.js';
import { CurrencySchema, Timestamp, isoTime } from './common.js';

export const AccountSummarySchema = Type.Object({
  currency: CurrencySchema,
  totalDeposits: Type.Number(),
  totalConsumed: Type.Number(),
  creditRemaining: Type.Number(),
  orderSummary: Type.Object({
    recharges: Type.Object({
      count: Type.Integer(),
      totalAmountNet: Type.Number(),
      totalAmountGross: Type.Number(),
      totalFastRechargeFeeNet: Type.Number(),
      totalFastRechargeFeeGross: Type.Number(),
      totalVat: Type.Number(),
      totalDeducted: Type.Number(),
    }),
  }),
});
export type AccountSummary = Static<typeof AccountSummarySchema>;

export const BalanceSchema = Type.Object({ balance: Type.Number(), currency: CurrencySchema });
export type Balance = Static<typeof BalanceSchema>;

export const DepositRecordSchema = Type.Object({
  id: Type.String(),
  amount: Type.Number(),
  currency: CurrencySchema,
  reference: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});
export type DepositRecord = Static<typeof DepositRecordSchema>;

export const PongSchema = Type.Object({
  success: Type.Literal(true),
  environment: Type.Union(ENVIRONMENTS.map((e) => Type.Literal(e))),
  accountId: Type.String(),
});

/** The account summary of the interface document, in the account's currency. */
export function presentAccountSummary(account: Account): AccountSummary {
  const f = accountFigures(account);
  return {
    currency: account.currency,
    totalDeposits: toJsonNumber(f.totalDeposits),
    totalConsumed: toJsonNumber(f.totalConsumed),
    creditRemaining: toJsonNumber(f.creditRemaining),
    orderSummary: {
      recharges: {
        count: Number(f.count),
        totalAmountNet: toJsonNumber(f.totalAmountNet),
        totalAmountGross: toJsonNumber(f.totalAmountGross),
        totalFastRechargeFeeNet: toJsonNumber(f.totalFastRechargeFeeNet),
        totalFastRechargeFeeGross: toJsonNumber(f.totalFastRechargeFeeGross),
        totalVat: toJsonNumber(f.totalVat),
        totalDeducted: toJsonNumber(f.totalDeducted),
      },
    },
  };
}

export const presentBalance = (account: Account): Balance => ({ balance: toJsonNumber(account.balance), currency: account.currency });

export const presentDeposit = (d: Deposit): DepositRecord => ({
  id: d.id,
  amount: toJsonNumber(d.amount),
  currency: d.currency,
  reference: d.reference,
  created_at: isoTime(d.createdAt),
});

/** An account as an operator of the service lists it (`topup accounts list`). */
export const presentAccount = (a: Account) => ({
  id: a.id,
  name: a.name,
  currency: a.currency,
  balance: toJsonNumber(a.balance),
  created_at: isoTime(a.createdAt),
});
