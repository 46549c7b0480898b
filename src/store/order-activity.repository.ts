import { sql } from 'kysely';
import { DAY_MS, type DailyActivity } from '../domain/activity.js';
import type { OrderStatus } from '../domain/order-status.js';
import type { Db } from './database.js';

/**
 * Orders created at or after `from`, counted and summed per UTC day and status. Integer division of
 * the millisecond timestamp gives the day on both dialects alike; the range is read off the
 * (account_id, created_at) index.
 */
export async function dailyActivity(db: Db, accountId: string, from: number): Promise<DailyActivity[]> {
  const day = sql<number | bigint | string>`created_at / ${sql.lit(DAY_MS)}`;
  const rows = await db
    .selectFrom('orders')
    .select([
      day.as('day'),
      'status',
      (eb) => eb.fn.countAll<number | bigint | string>().as('orders'),
      (eb) => eb.fn.sum<number | bigint | string>('deduction').as('deduction'),
    ])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', from)
    .groupBy([day, 'status'])
    .orderBy(day)
    .orderBy('status')
    .execute();
  // PostgreSQL answers a bigint's sum as numeric, in text: every figure is converted from whatever came.
  return rows.map((r) => ({ day: Number(r.day), status: r.status as OrderStatus, orders: Number(r.orders), deduction: BigInt(r.deduction) }));
}
