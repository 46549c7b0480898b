import { Type, type Static } from '@sinclair/typebox';
import { DAY_MS, MAX_ACTIVITY_DAYS, type DailyActivity } from '../domain/activity.js';
import type { Currency } from '../domain/currency.js';
import { ORDER_STATUSES } from '../domain/order-status.js';
import { toJsonNumber } from '../domain/money.js';
import { CurrencySchema } from './common.js';

export const ActivityQuerySchema = Type.Object(
  { days: Type.Integer({ minimum: 1, maximum: MAX_ACTIVITY_DAYS, default: 30, description: 'how many UTC days, today included' }) },
  { additionalProperties: false },
);

const DayText = Type.String({ format: 'date', description: 'a UTC day, YYYY-MM-DD' });

export const ActivitySchema = Type.Object({
  currency: CurrencySchema,
  from: DayText,
  to: DayText,
  data: Type.Array(
    Type.Object({
      date: DayText,
      status: Type.Union(ORDER_STATUSES.map((s) => Type.Literal(s))),
      orders: Type.Integer(),
      deduction: Type.Number({ description: 'charged to the balance, in the account currency (a FAILED order was refunded)' }),
    }),
    { description: 'only days and statuses with orders, oldest first' },
  ),
});
export type Activity = Static<typeof ActivitySchema>;

const dateOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

export function presentActivity(result: { firstDay: number; lastDay: number; currency: Currency; activity: readonly DailyActivity[] }): Activity {
  return {
    currency: result.currency,
    from: dateOf(result.firstDay),
    to: dateOf(result.lastDay),
    data: result.activity.map((a) => ({ date: dateOf(a.day), status: a.status, orders: a.orders, deduction: toJsonNumber(a.deduction) })),
  };
}
