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
    // A known path asked with another method is 405 with Allow (it was 404 once).
    const wrongMethod = await t.ctx.call(undefined, { method: 'DELETE', url: '/v1/account' });
    problem(wrongMethod, 405, 'method_not_allowed');
    expect(wrongMethod.headers.allow).toBe('GET');
    const getRecharge = await t.ctx.call(undefined, { method: 'GET', url: '/v1/recharge' });
    problem(getRecharge, 405, 'method_not_allowed');
    expect(getRecharge.headers.allow).toBe('POST');
    expect((await t.ctx.call(undefined, { method: 'PUT', url: '/v1/account/recharges/0192f1a0-0000-7000-8000-000000000000' })).headers.allow).toBe('GET');
  });

  it('says what it refuses: a __proto__ key, a value outside a choice, a parameter a route does not take', async () => {
    const { key } = await t.ctx.account();
    const proto = await t.ctx.call(key, {
      method: 'POST',
      url: '/v1/check-number',
      headers: { 'content-type': 'application/json' },
      payload: '{"phone_number":"0744123456","__proto__":{"admin":true}}',
    });
    problem(proto, 400, 'validation_failed');
    expect(proto.json().detail).toContain('__proto__');
    const bogus = await t.ctx.call(key, { method: 'GET', url: '/v1/account/recharges?status=bogus' });
    problem(bogus, 400, 'invalid_query');
    expect(bogus.json().errors).toEqual([{ field: 'status', code: 'invalid_value', message: 'status must be one of PENDING, PROCESSING, SUCCESS, FAILED' }]);
    for (const url of ['/v1/account/balance?verbose=1', '/v1/account?limt=5']) {
      const unknown = await t.ctx.call(key, { method: 'GET', url });
      problem(unknown, 400, 'invalid_query');
    }
  });

  it('answers errors below HTTP (oversized headers, malformed requests) as problem+json with a request id', async () => {
    const { connect } = await import('node:net');
    await t.ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.ctx.app.server.address() as { port: number };
    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(text));
        let out = '';
        socket.on('data', (chunk) => (out += chunk.toString()));
        socket.on('close', () => resolve(out));
      });
    for (const [text, status, code] of [
      [`GET /v1/account HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`, 431, 'headers_too_large'],
      ['GARBAGE\r\n\r\n', 400, 'malformed_request'],
    ] as const) {
      const answer = await raw(text);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(head).toMatch(/content-type: application\/problem\+json/i);
      expect(head).toMatch(/x-request-id: req_[0-9a-f]{32}/i);
      expect(JSON.parse(body!)).toMatchObject({ status, code, success: false });
    }
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
