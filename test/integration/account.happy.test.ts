import { expect, it } from 'vitest';
import { addDeposit } from '../../src/app/deposits.js';
import { describeEachDialect, useTestContext } from '../support/harness.js';

describeEachDialect('account reads', (dialect) => {
  const t = useTestContext(dialect);

  it('GET /v1/account/balance is the credit in the account currency', async () => {
    const ron = await t.ctx.account({ credit: '1179.45' });
    const eur = await t.ctx.account({ credit: '250.10', currency: 'EUR' });
    expect((await t.ctx.call(ron.key, { method: 'GET', url: '/v1/account/balance' })).json()).toEqual({ balance: 1179.45, currency: 'RON' });
    expect((await t.ctx.call(eur.key, { method: 'GET', url: '/v1/account/balance' })).json()).toEqual({ balance: 250.1, currency: 'EUR' });
  });

  it('GET /v1/account sums deposits exactly to the cent', async () => {
    const account = await t.ctx.account();
    for (const amount of ['0.10', '0.20', '0.30', '100.01']) await addDeposit(t.ctx.deps, { accountId: account.accountId, amount });
    const response = await t.ctx.call(account.key, { method: 'GET', url: '/v1/account' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      currency: 'RON',
      totalDeposits: 100.61,
      totalConsumed: 0,
      creditRemaining: 100.61,
      orderSummary: {
        recharges: {
          count: 0,
          totalAmountNet: 0,
          totalAmountGross: 0,
          totalFastRechargeFeeNet: 0,
          totalFastRechargeFeeGross: 0,
          totalVat: 0,
          totalDeducted: 0,
        },
      },
    });
  });

  it('GET /v1/account/deposits pages most recent first', async () => {
    const account = await t.ctx.account();
    for (let i = 1; i <= 25; i++) {
      t.ctx.clock.advance(1000);
      await addDeposit(t.ctx.deps, { accountId: account.accountId, amount: `${i}.00`, reference: `transfer ${i}` });
    }
    const first = (await t.ctx.call(account.key, { method: 'GET', url: '/v1/account/deposits' })).json();
    expect(first.pagination).toEqual({ page: 1, limit: 20, total: 25, total_pages: 2 });
    expect(first.data).toHaveLength(20);
    expect(first.data[0]).toEqual({
      id: expect.stringMatching(/^dep_/),
      amount: 25,
      currency: 'RON',
      reference: 'transfer 25',
      created_at: new Date(t.ctx.clock.now()).toISOString(),
    });
    expect(first.data[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const page = (await t.ctx.call(account.key, { method: 'GET', url: '/v1/account/deposits?page=3&limit=10' })).json();
    expect(page.pagination).toEqual({ page: 3, limit: 10, total: 25, total_pages: 3 });
    expect(page.data.map((d: { amount: number }) => d.amount)).toEqual([5, 4, 3, 2, 1]);
    const beyond = (await t.ctx.call(account.key, { method: 'GET', url: '/v1/account/deposits?page=9&limit=10' })).json();
    expect(beyond).toEqual({ data: [], pagination: { page: 9, limit: 10, total: 25, total_pages: 3 } });
  });

  it('pages deposits by keyset with after=', async () => {
    const account = await t.ctx.account();
    for (let i = 1; i <= 7; i++) {
      t.ctx.clock.advance(1000);
      await addDeposit(t.ctx.deps, { accountId: account.accountId, amount: `${i}.00` });
    }
    const get = async (url: string) => (await t.ctx.call(account.key, { method: 'GET', url })).json();
    const first = await get('/v1/account/deposits?limit=3');
    const second = await get(`/v1/account/deposits?limit=3&after=${first.data[2].id}`);
    const third = await get(`/v1/account/deposits?limit=3&after=${second.pagination.next_after}`);
    expect([...first.data, ...second.data, ...third.data].map((d: { amount: number }) => d.amount)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(third.pagination).toEqual({ after: second.data[2].id, limit: 3, total: 7, total_pages: 3, next_after: null });
    expect((await t.ctx.call(account.key, { method: 'GET', url: '/v1/account/deposits?after=dep_aaaaaaaaaaaaaaaaaaaaaaaaaa' })).statusCode).toBe(400);
  });

  it('an account without deposits has an empty first page', async () => {
    const account = await t.ctx.account();
    expect((await t.ctx.call(account.key, { method: 'GET', url: '/v1/account/deposits' })).json()).toEqual({
      data: [],
      pagination: { page: 1, limit: 20, total: 0, total_pages: 0 },
    });
  });

  it('POST /v1/ping names the account and environment', async () => {
    const account = await t.ctx.account();
    const response = await t.ctx.call(account.key, { method: 'POST', url: '/v1/ping' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, environment: 'staging', accountId: account.accountId });
  });
});
