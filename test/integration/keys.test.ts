import { expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, testDeps, useTestContext } from '../support/harness.js';

describeEachDialect('API keys over HTTP', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);
  const keys = (key: string, method: 'GET' | 'POST' | 'DELETE' = 'GET', url = '/v1/keys', payload?: object) =>
    t.ctx.call(key, { method, url, ...(payload ? { payload } : {}) });

  it('lists the account\'s own keys, issues a read key shown once, and notes when each was last used', async () => {
    const { key, keyId } = await t.ctx.account({ credit: '10.00' });
    await t.ctx.account(); // another account's key never shows
    const created = await keys(key, 'POST', '/v1/keys', { name: 'reporting', scope: 'read' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^tk_test_/), scope: 'read' });
    const listed = (await keys(key)).json().data;
    expect(listed).toEqual([
      { id: keyId, prefix: key.slice(0, 12), name: null, scope: 'full', environment: 'staging', created_at: expect.any(String), last_used_at: expect.any(String), revoked: false },
      { id: created.json().id, prefix: created.json().key.slice(0, 12), name: 'reporting', scope: 'read', environment: 'staging', created_at: expect.any(String), last_used_at: null, revoked: false },
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.json().key);
  });

  it('lets a read key call the GET endpoints and POST /v1/ping only: anything else is 403 insufficient_scope', async () => {
    const { key } = await t.ctx.account({ credit: '100.00' });
    const reader = (await keys(key, 'POST', '/v1/keys', { scope: 'read' })).json().key;
    for (const url of ['/v1/account', '/v1/account/balance', '/v1/account/deposits', '/v1/account/recharges', '/v1/keys']) {
      expect((await t.ctx.call(reader, { method: 'GET', url })).statusCode, url).toBe(200);
    }
    expect((await t.ctx.call(reader, { method: 'POST', url: '/v1/ping' })).statusCode).toBe(200);
    await checkNumbers(t.ctx, key, ['0744123456']);
    const refused = [
      { method: 'POST' as const, url: '/v1/check-number', payload: { phone_number: '0744123456' } },
      { method: 'POST' as const, url: '/v1/recharge', payload: { recharges: [{ phone_number: '0744123456', amount: 5 }] } },
      { method: 'POST' as const, url: '/v1/recharge/quote', payload: { recharges: [{ phone_number: '0744123456', amount: 5 }] } },
      { method: 'POST' as const, url: '/v1/keys', payload: {} },
      { method: 'DELETE' as const, url: '/v1/keys/key_whatever' },
    ];
    for (const call of refused) {
      const response = await t.ctx.call(reader, call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(response.json()).toMatchObject({ code: 'insufficient_scope', status: 403 });
    }
    expect((await t.ctx.call(key, { method: 'GET', url: '/v1/account/balance' })).json().balance).toBe(100);
  });

  it('revokes a key of this account at once here and within 2 s in every other process; another account\'s key is 404', async () => {
    const { key } = await t.ctx.account();
    const other = await t.ctx.account();
    const spare = (await keys(key, 'POST', '/v1/keys', { name: 'spare' })).json();
    // A second API process on the same database, which has just used the key.
    const shared = await testDeps(t.ctx.database.target, FAST_SIMULATOR, { clock: t.ctx.clock });
    const appB = await buildApp(shared);
    try {
      expect((await appB.inject({ method: 'POST', url: '/v1/ping', headers: { 'x-authorization': spare.key } })).statusCode).toBe(200);
      expect((await keys(key, 'DELETE', `/v1/keys/${other.keyId}`)).statusCode).toBe(404);
      expect((await keys(key, 'DELETE', '/v1/keys/key_nope')).json()).toMatchObject({ code: 'not_found' });
      expect((await keys(key, 'DELETE', `/v1/keys/${spare.id}`)).statusCode).toBe(204);
      expect((await t.ctx.call(spare.key, { method: 'POST', url: '/v1/ping' })).statusCode).toBe(401);
      t.ctx.clock.advance(2_001);
      expect((await appB.inject({ method: 'POST', url: '/v1/ping', headers: { 'x-authorization': spare.key } })).statusCode).toBe(401);
      expect((await t.ctx.call(other.key, { method: 'POST', url: '/v1/ping' })).statusCode).toBe(200);
      expect((await keys(key)).json().data.find((k: { id: string }) => k.id === spare.id)).toMatchObject({ revoked: true });
    } finally {
      await appB.close();
      await shared.close();
    }
  });

  it('refuses a scope it does not know, naming the allowed ones', async () => {
    const { key } = await t.ctx.account();
    const response = await keys(key, 'POST', '/v1/keys', { scope: 'admin' });
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain('full');
  });
});
