import { expect, it } from 'vitest';
import { KEY_CACHE_TTL_MS, revokeApiKey } from '../../src/app/api-keys.js';
import * as keys from '../../src/store/api-keys.repository.js';
import { describeEachDialect, useTestContext, type TestContext } from '../support/harness.js';

interface RouteCall {
  method: 'GET' | 'POST';
  url: string;
  payload?: object;
}

/** Every /v1 operation in the OpenAPI document, so a new route cannot escape this matrix. */
function v1Routes(ctx: TestContext): RouteCall[] {
  const doc = ctx.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => ({
        method: method.toUpperCase() as 'GET' | 'POST',
        url: path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'),
        ...(method === 'post' ? { payload: {} } : {}),
      })),
    );
}

describeEachDialect('authentication on every /v1 route', (dialect) => {
  const t = useTestContext(dialect);

  it('covers the routes the API has', () => {
    const urls = v1Routes(t.ctx).map((r) => `${r.method} ${r.url}`);
    expect(urls).toEqual(
      expect.arrayContaining(['POST /v1/check-number', 'GET /v1/account', 'GET /v1/account/balance', 'GET /v1/account/deposits', 'POST /v1/ping']),
    );
  });

  it.each([
    ['no header', undefined, 'missing_api_key'],
    ['an empty header', '', 'missing_api_key'],
    ['a malformed key', 'hello', 'invalid_api_key'],
    ['an unknown staging key', 'tk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'invalid_api_key'],
    ['a production key on staging', 'tk_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'wrong_environment'],
  ])('refuses %s with 401 %s', async (_name, key, code) => {
    for (const route of v1Routes(t.ctx)) {
      const response = await t.ctx.call(key, route);
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ status: 401, code, success: false });
    }
  });

  it('refuses a revoked key on every route', async () => {
    const account = await t.ctx.account();
    await revokeApiKey(t.ctx.deps, account.keyId, t.ctx.keyCache);
    for (const route of v1Routes(t.ctx)) {
      const response = await t.ctx.call(account.key, route);
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(response.json().code).toBe('invalid_api_key');
    }
  });

  it('stops a key revoked by another process within the cache lifetime (under 5 s)', async () => {
    const account = await t.ctx.account();
    const ping = { method: 'POST' as const, url: '/v1/ping' };
    expect((await t.ctx.call(account.key, ping)).statusCode).toBe(200);
    // Revoked behind this process's back: straight in the database, no cache invalidation.
    await keys.revokeApiKey(t.ctx.deps.store.db, account.keyId, t.ctx.clock.now());
    t.ctx.clock.advance(KEY_CACHE_TTL_MS);
    expect(KEY_CACHE_TTL_MS).toBeLessThanOrEqual(5_000);
    const response = await t.ctx.call(account.key, ping);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('invalid_api_key');
  });

  it('authenticates before reading the body', async () => {
    const response = await t.ctx.call(undefined, {
      method: 'POST',
      url: '/v1/check-number',
      headers: { 'content-type': 'text/plain' },
      payload: 'not json',
    });
    expect(response.statusCode).toBe(401);
  });

  it("answers with the caller's own account only", async () => {
    const a = await t.ctx.account({ credit: '10.00' });
    const b = await t.ctx.account({ credit: '20.00' });
    const balanceA = await t.ctx.call(a.key, { method: 'GET', url: '/v1/account/balance' });
    const balanceB = await t.ctx.call(b.key, { method: 'GET', url: '/v1/account/balance' });
    expect(balanceA.json()).toEqual({ balance: 10, currency: 'RON' });
    expect(balanceB.json()).toEqual({ balance: 20, currency: 'RON' });
    const deposits = await t.ctx.call(a.key, { method: 'GET', url: '/v1/account/deposits' });
    expect(deposits.json().data.map((d: { amount: number }) => d.amount)).toEqual([10]);
  });
});

describeEachDialect('a production deployment', (dialect) => {
  const t = useTestContext(dialect, { TOPUP_ENV: 'production' });

  it('issues live keys and refuses test keys', async () => {
    const account = await t.ctx.account();
    expect(account.key.startsWith('tk_live_')).toBe(true);
    expect((await t.ctx.call(account.key, { method: 'POST', url: '/v1/ping' })).json()).toEqual({
      success: true,
      environment: 'production',
      accountId: account.accountId,
    });
    const wrong = await t.ctx.call('tk_test_abc', { method: 'POST', url: '/v1/ping' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('wrong_environment');
    expect(wrong.json().detail).toContain('staging');
  });
});

describeEachDialect('requests without a valid key, counted per client address', (dialect) => {
  const t = useTestContext(dialect, { TOPUP_AUTH_FAILURES_PER_MINUTE: '5' });
  const balance = (key: string | undefined, remoteAddress = '203.0.113.7') =>
    t.ctx.app.inject({ method: 'GET', url: '/v1/account/balance', remoteAddress, headers: key === undefined ? {} : { 'x-authorization': key } });

  it('are refused with 429 before any key lookup once an address has sent too many, with RateLimit headers throughout', async () => {
    const { key } = await t.ctx.account();
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push(await balance(`tk_test_madeup${String(i).padStart(4, '0')}`));
    expect(answers.slice(0, 5).map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.slice(0, 5).map((r) => r.headers['ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0']);
    for (const refused of answers.slice(5)) {
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.json()).toMatchObject({ code: 'rate_limited', success: false });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.headers).toMatchObject({ 'ratelimit-limit': '5', 'ratelimit-remaining': '0' });
    }
    // A missing key counts too; another address is not affected; a valid key waits out the minute.
    expect((await balance(undefined)).statusCode).toBe(429);
    expect((await balance(key)).statusCode).toBe(429);
    expect((await balance('tk_test_madeup-elsewhere', '198.51.100.9')).statusCode).toBe(401);
    expect((await balance(key, '198.51.100.9')).statusCode).toBe(200);
    t.ctx.clock.advance(60_000);
    expect((await balance(key)).statusCode).toBe(200);
  });
});
