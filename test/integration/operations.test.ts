import { validate } from '@readme/openapi-parser';
import { expect, it } from 'vitest';
import { closeTestContext, openTestContext, describeEachDialect, useTestContext } from '../support/harness.js';

describeEachDialect('operational endpoints', (dialect) => {
  const t = useTestContext(dialect);

  it('GET /healthz and /readyz answer without a key', async () => {
    expect((await t.ctx.call(undefined, { method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.ctx.call(undefined, { method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('GET /metrics is Prometheus text with request durations', async () => {
    const { key } = await t.ctx.account();
    await t.ctx.call(key, { method: 'GET', url: '/v1/account/balance' });
    const response = await t.ctx.call(undefined, { method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toContain('http_request_duration_seconds_bucket');
    expect(response.body).toMatch(/route="\/v1\/account\/balance",status="200"/);
    expect(response.body).toContain('process_resident_memory_bytes');
  });

  it('GET /openapi.json is a valid OpenAPI 3.1 document of every route', async () => {
    const response = await t.ctx.call(undefined, { method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc));
    expect(result.valid ? [] : result.errors).toEqual([]);
    for (const path of ['/v1/check-number', '/v1/account', '/v1/account/balance', '/v1/account/deposits', '/v1/ping']) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-Authorization' });
    expect(doc.paths['/v1/check-number'].post.requestBody.content['application/json'].schema.required).toEqual(['phone_number']);
  });

  it('GET /docs renders a reference page from the document', async () => {
    const response = await t.ctx.call(undefined, { method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toMatch(/swagger/i);
    const json = await t.ctx.call(undefined, { method: 'GET', url: '/docs/json' });
    expect(json.json().openapi).toBe('3.1.0');
  });

  it('GET /problems/{code} describes an error code', async () => {
    expect((await t.ctx.call(undefined, { method: 'GET', url: '/problems/insufficient_funds' })).json()).toEqual({
      type: '/problems/insufficient_funds',
      code: 'insufficient_funds',
      status: 402,
      title: 'Not enough credit',
    });
    expect((await t.ctx.call(undefined, { method: 'GET', url: '/problems/toString' })).statusCode).toBe(404);
  });
});

describeEachDialect('readiness without a database', (dialect) => {
  it('GET /readyz is 503 unavailable when the database cannot be reached', async () => {
    const ctx = await openTestContext(dialect);
    await ctx.deps.store.close();
    const response = await ctx.call(undefined, { method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'unavailable', status: 503 });
    await ctx.app.close();
    await ctx.database.drop();
  });
});

describeEachDialect('request logs', (dialect) => {
  it('write one line per request with an ISO time, the level by name, the client and the account; probes only at debug', async () => {
    const { createLogger } = await import('../../src/adapters/logger.js');
    const { buildApp } = await import('../../src/http/app.js');
    const lines: Array<Record<string, unknown>> = [];
    const ctx = await openTestContext(dialect);
    const log = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const app = await buildApp({ ...ctx.deps, log });
    try {
      const { key, accountId } = await ctx.account();
      await app.inject({ method: 'GET', url: '/healthz', remoteAddress: '198.51.100.4' });
      await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '198.51.100.4' });
      await app.inject({ method: 'GET', url: '/v1/account/balance', remoteAddress: '198.51.100.4', headers: { 'x-authorization': key } });
      const requests = lines.filter((l) => l.msg === 'request');
      expect(requests).toEqual([
        expect.objectContaining({ level: 'info', url: '/v1/account/balance', status: 200, client: '198.51.100.4', account: accountId, time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) }),
      ]);
    } finally {
      await app.close();
      await closeTestContext(ctx);
    }
  });
});
