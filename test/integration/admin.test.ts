import { expect, it } from 'vitest';
import { describeEachDialect, useTestContext } from '../support/harness.js';

const TOKEN = 'adm_0123456789abcdefghijklmnopqrstuv';

describeEachDialect('the admin API', (dialect) => {
  const t = useTestContext(dialect, { TOPUP_ADMIN_TOKEN: TOKEN });
  const admin = (method: 'GET' | 'POST', url: string, payload?: object, token: string | null = TOKEN) =>
    t.ctx.call(undefined, { method, url, ...(payload ? { payload } : {}), headers: token === null ? {} : { authorization: `Bearer ${token}` } });

  it('creates an account, credits it and issues it a key, answering as the command line does', async () => {
    const created = await admin('POST', '/admin/v1/accounts', { name: 'Acme SRL', currency: 'EUR' });
    expect(created.statusCode).toBe(201);
    const account = created.json();
    expect(account).toEqual({ id: expect.stringMatching(/^acc_/), name: 'Acme SRL', currency: 'EUR' });
    const deposit = await admin('POST', `/admin/v1/accounts/${account.id}/deposits`, { amount: '100.50', reference: 'wire 7' });
    expect([deposit.statusCode, deposit.json()]).toEqual([201, { id: expect.stringMatching(/^dep_/), amount: 100.5, currency: 'EUR', balance: 100.5 }]);
    expect((await admin('POST', `/admin/v1/accounts/${account.id}/deposits`, { amount: 10 })).json().balance).toBe(110.5);
    const key = await admin('POST', `/admin/v1/accounts/${account.id}/keys`, { name: 'erp' });
    expect([key.statusCode, key.json()]).toEqual([201, { id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^tk_test_/), scope: 'full' }]);
    expect((await t.ctx.call(key.json().key, { method: 'GET', url: '/v1/account/balance' })).json()).toEqual({ balance: 110.5, currency: 'EUR' });
    const listed = (await admin('GET', '/admin/v1/accounts')).json().data;
    expect(listed).toContainEqual(expect.objectContaining({ id: account.id, name: 'Acme SRL', currency: 'EUR', balance: 110.5 }));
  });

  it('refuses a missing or wrong token, bad input and unknown accounts, plainly', async () => {
    for (const token of [null, 'nope', `${TOKEN}x`]) {
      const refused = await admin('GET', '/admin/v1/accounts', undefined, token);
      expect([refused.statusCode, refused.json().code]).toEqual([401, 'invalid_admin_token']);
    }
    expect((await admin('POST', '/admin/v1/accounts', { name: '' })).statusCode).toBe(400);
    expect((await admin('POST', '/admin/v1/accounts', { name: 'x', currency: 'USD' })).statusCode).toBe(400);
    expect((await admin('POST', '/admin/v1/accounts/acc_nope/deposits', { amount: '5.00' })).json()).toMatchObject({ status: 404, code: 'not_found' });
    expect((await admin('POST', '/admin/v1/accounts/acc_nope/keys', {})).json()).toMatchObject({ status: 404, code: 'not_found' });
    expect((await admin('POST', '/admin/v1/accounts/acc_nope/deposits', { amount: '-5' })).statusCode).toBe(400);
  });

  it('is rate limited per client address, wrong tokens included', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 125; i++) statuses.push((await admin('GET', '/admin/v1/accounts', undefined, 'wrong')).statusCode);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});

describeEachDialect('the admin API without a token set', (dialect) => {
  const t = useTestContext(dialect);
  it('does not exist', async () => {
    const response = await t.ctx.call(undefined, { method: 'POST', url: '/admin/v1/accounts', payload: { name: 'x' }, headers: { authorization: 'Bearer anything' } });
    expect([response.statusCode, response.json().code]).toEqual([404, 'not_found']);
  });
});
