import type { Account } from '../domain/account.js';
import type { Currency } from '../domain/currency.js';
import { big, num } from './convert.js';
import type { Db, Tx } from './database.js';
import { prepared } from './prepared.js';

type AccountRow = Awaited<ReturnType<typeof selectAccounts>>[number];

function selectAccounts(db: Db) {
  return db.selectFrom('accounts').selectAll().execute();
}

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency as Currency,
    balance: big(row.balance),
    totalDeposits: big(row.total_deposits),
    orders: {
      count: big(row.orders_count),
      amountNet: big(row.orders_amount_net),
      amountGross: big(row.orders_amount_gross),
      feeNet: big(row.orders_fee_net),
      feeGross: big(row.orders_fee_gross),
    },
    createdAt: num(row.created_at),
  };
}

export async function insertAccount(
  db: Db | Tx,
  account: { id: string; name: string; currency: Currency; createdAt: number },
): Promise<void> {
  await db
    .insertInto('accounts')
    .values({ id: account.id, name: account.name, currency: account.currency, created_at: account.createdAt })
    .execute();
}

const accountById = prepared((db: Db, p: { id: string }) => db.selectFrom('accounts').selectAll().where('id', '=', p.id));

export async function findAccount(db: Db | Tx, id: string): Promise<Account | undefined> {
  const [row] = await accountById.execute(db, { id });
  return row && toAccount(row);
}

export async function findAccountByName(db: Db, name: string): Promise<Account | undefined> {
  const row = await db.selectFrom('accounts').selectAll().where('name', '=', name).orderBy('created_at').executeTakeFirst();
  return row && toAccount(row);
}

export async function listAccounts(db: Db): Promise<Account[]> {
  const rows = await db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(toAccount);
}

/** Adds a deposit to the balance and the deposit total; returns the new balance. */
export async function creditDeposit(tx: Tx, accountId: string, amount: bigint): Promise<bigint> {
  const row = await tx
    .updateTable('accounts')
    .set((eb) => ({
      balance: eb('balance', '+', amount),
      total_deposits: eb('total_deposits', '+', amount),
    }))
    .where('id', '=', accountId)
    .returning('balance')
    .executeTakeFirstOrThrow();
  return big(row.balance);
}
