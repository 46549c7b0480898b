import type { Currency } from '../domain/currency.js';
import type { Deposit } from '../domain/deposit.js';
import { isCursor, pageOffset, type CursorRequest, type PageRequest } from '../domain/pagination.js';
import { big, num } from './convert.js';
import type { Db, Tx } from './database.js';

export async function insertDeposit(tx: Tx, deposit: Deposit): Promise<void> {
  await tx
    .insertInto('deposits')
    .values({
      id: deposit.id,
      account_id: deposit.accountId,
      amount: deposit.amount,
      currency: deposit.currency,
      reference: deposit.reference,
      created_at: deposit.createdAt,
    })
    .execute();
}

/** One page of an account's deposits, most recent first, and how many there are in all. */
export async function listDeposits(
  db: Db,
  accountId: string,
  page: PageRequest | CursorRequest,
): Promise<{ rows: Deposit[] | undefined; total: number }> {
  let rowsQuery = db.selectFrom('deposits').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit);
  if (isCursor(page)) {
    const cursor = await db.selectFrom('deposits').select(['created_at', 'id']).where('account_id', '=', accountId).where('id', '=', page.after).executeTakeFirst();
    if (!cursor) return { rows: undefined, total: 0 };
    rowsQuery = rowsQuery.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(cursor.created_at, cursor.id)));
  } else {
    rowsQuery = rowsQuery.offset(pageOffset(page));
  }
  const [rows, count] = await Promise.all([
    rowsQuery.execute(),
    db
      .selectFrom('deposits')
      .select((eb) => eb.fn.countAll().as('total'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      accountId: r.account_id,
      amount: big(r.amount),
      currency: r.currency as Currency,
      reference: r.reference,
      createdAt: num(r.created_at),
    })),
    total: num(count.total as number | bigint),
  };
}
