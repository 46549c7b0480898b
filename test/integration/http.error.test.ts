import { expect, it } from 'vitest';
import { closeTestContext, describeEachDialect, openTestContext, useTestContext } from '../support/harness.js';

function problem(response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toContain('application/problem+json');
  expect(response.headers['x-request-id']).toMatch(/^req_/);
  const body = response.json() as Record<string, unknown>;
  expect(body).toMatchObject({ status, code, success: false, type: `/problems/${code}`, requestId: response.headers['x-request-id'] });
  expect(body.message).toBe(body.detail);
  expect(typeof body.title).toBe('string');
}

describeEachDialect('HTTP conventions', (dialect) => {
  const t = useTestContext(dialect);

  it('refuses bodies that are not JSON with 415', async () => {
    const { key } = await t.ctx.account();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const response = await t.ctx.call(key, { method: 'POST', url: '/v1/check-number', headers: { 'content-type': type }, payload: 'phone_number=0744123456' });
      problem(response, 415, 'unsupported_media_type');
    }
  });

  it('refuses malformed and empty JSON with 400 invalid_json', async () => {
    const { key } = await t.ctx.account();
    for (const payload of ['{"phone_number":', '{bad}', "{'a':1}", '']) {
      const response = await t.ctx.call(key, { method: 'POST', url: '/v1/check-number', headers: { 'content-type': 'application/json' }, payload });
      problem(response, 400, 'invalid_json');
    }
  });

  it('refuses prototype pollution attempts', async () => {
    const { key } = await t.ctx.account();
    const response = await t.ctx.call(key, {
      method: 'POST',
      url: '/v1/check-number',
      headers: { 'content-type': 'application/json' },
      payload: '{"phone_number":"0744123456","__proto__":{"admin":true}}',
    });
    expect(response.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('refuses bodies over 256 KiB with 413', async () => {
    const { key } = await t.ctx.account();
    const payload = JSON.stringify({ phone_number: 'x'.repeat(300 * 1024) });
    const response = await t.ctx.call(key, { method: 'POST', url: '/v1/check-number', headers: { 'content-type': 'application/json' }, payload });
    problem(response, 413, 'payload_too_large');
  });

  it('answers unknown routes with 404 problem+json', async () => {
    problem(await t.ctx.call(undefined, { method: 'GET', url: '/v1/nothing-here' }), 404, 'not_found');
    problem(await t.ctx.call(undefined, { method: 'DELETE', url: '/v1/account' }), 404, 'not_found');
  });

  it('puts X-Request-Id on successful responses too', async () => {
    const { key } = await t.ctx.account();
    const response = await t.ctx.call(key, { method: 'GET', url: '/v1/account/balance' });
    expect(response.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  });

});

describeEachDialect('rate limiting', (dialect) => {
  const t = useTestContext(dialect, { TOPUP_RATE_LIMIT_PER_MINUTE: '3' });

  it('limits each key per minute with RateLimit headers and Retry-After', async () => {
    const limited = await t.ctx.account();
    const other = await t.ctx.account();
    const call = (key: string) => t.ctx.call(key, { method: 'GET', url: '/v1/account/balance' });
    for (let i = 0; i < 3; i++) {
      const ok = await call(limited.key);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['ratelimit-limit']).toBe('3');
      expect(ok.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    const refused = await call(limited.key);
    problem(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect((await call(other.key)).statusCode).toBe(200);
  });
});

describeEachDialect('internal errors', (dialect) => {
  it('are 500 internal_error without internals in the body', async () => {
    const ctx = await openTestContext(dialect);
    const { key } = await ctx.account();
    await ctx.deps.store.close();
    const response = await ctx.call(key, { method: 'GET', url: '/v1/account/balance' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toMatchObject({ code: 'internal_error', status: 500, success: false });
    expect(JSON.stringify(body)).not.toMatch(/kysely|destroyed|sqlite|pg|stack|at /i);
    await ctx.app.close();
    await ctx.database.drop();
  });
});

describeEachDialect('rate limiting off', (dialect) => {
  it('sends no RateLimit headers when TOPUP_RATE_LIMIT_PER_MINUTE=0', async () => {
    const ctx = await openTestContext(dialect, { TOPUP_RATE_LIMIT_PER_MINUTE: '0' });
    const { key } = await ctx.account();
    const response = await ctx.call(key, { method: 'GET', url: '/v1/account/balance' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['ratelimit-limit']).toBeUndefined();
    await closeTestContext(ctx);
  });
});
