import { expect } from 'vitest';
import { findOrderById } from '../../src/store/orders.repository.js';
import type { TestContext } from './harness.js';

// What several suites read back to check the books, in one place.

/** How many orders there are: of one account, or in the whole database. */
export async function orderCount(ctx: TestContext, accountId?: string): Promise<number> {
  let query = ctx.deps.store.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n'));
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** The balance as a client reads it: GET /v1/account/balance (a JSON number). */
export async function apiBalance(ctx: TestContext, key: string): Promise<number> {
  return (await ctx.call(key, { method: 'GET', url: '/v1/account/balance' })).json().balance;
}

/** An order as stored, whatever account it belongs to. */
export const storedOrder = (ctx: TestContext, id: string) => findOrderById(ctx.deps.store.db, id);

/** The account's ledger entries add up to its balance. */
export async function expectLedgerMatchesBalance(ctx: TestContext, accountId: string): Promise<void> {
  const db = ctx.deps.store.db;
  const entries = await db.selectFrom('ledger_entries').select('amount').where('account_id', '=', accountId).execute();
  const account = await db.selectFrom('accounts').select('balance').where('id', '=', accountId).executeTakeFirstOrThrow();
  expect(entries.reduce((sum, e) => sum + BigInt(e.amount), 0n)).toBe(BigInt(account.balance));
}

/** Runs a worker until nothing is due now; returns how many items it claimed in all. */
export async function drain(worker: { runOnce(): Promise<number> }): Promise<number> {
  let total = 0;
  for (let n = await worker.runOnce(); n > 0; n = await worker.runOnce()) total += n;
  return total;
}
