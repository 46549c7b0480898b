import type { ExchangeRate } from '../domain/exchange-rate.js';
import { big, num } from './convert.js';
import type { Db, Tx } from './database.js';

export async function insertRate(db: Db, rate: ExchangeRate): Promise<void> {
  await db
    .insertInto('exchange_rates')
    .values({ id: rate.id, eur_ron: rate.eurRon, source: rate.source, rate_date: rate.rateDate, stored_at: rate.storedAt })
    .execute();
}

export async function newestRate(db: Db | Tx): Promise<ExchangeRate | undefined> {
  const row = await db.selectFrom('exchange_rates').selectAll().orderBy('stored_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row && { id: row.id, eurRon: big(row.eur_ron), source: row.source, rateDate: row.rate_date, storedAt: num(row.stored_at) };
}
