import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { pruneExpired } from '../../src/app/maintenance.js';
import { buildApp } from '../../src/http/app.js';
import { describeEachDialect, FAST_SIMULATOR, testDeps, useTestContext, type TestContext } from '../support/harness.js';

const ORIGIN = 'http://127.0.0.1:8080';
const HOST = '127.0.0.1:8080';
const HOUR = 3_600_000;

/** The session cookie a sign-in answered with, as a browser would send it back. */
function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'topup_session');
  if (!cookie) throw new Error(`no session cookie: ${response.statusCode} ${response.body}`);
  return cookie.value;
}

async function signIn(ctx: TestContext, key: string): Promise<string> {
  const response = await ctx.app.inject({ method: 'POST', url: '/dashboard/session', headers: { 'x-authorization': key, origin: ORIGIN, host: HOST } });
  expect(response.statusCode, response.body).toBe(201);
  return sessionCookie(response);
}

/** A request as the dashboard's page makes it: the cookie, this site's Origin on unsafe methods. */
function asBrowser(ctx: TestContext, session: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, origin: string | null = ORIGIN) {
  return ctx.app.inject({
    method,
    url,
    cookies: { topup_session: session },
    headers: { host: HOST, ...(origin !== null && method !== 'GET' ? { origin } : {}) },
    ...(payload ? { payload } : {}),
  });
}

describeEachDialect('dashboard sessions', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);

  it('exchanges a key for an HttpOnly, SameSite=Strict session cookie whose id is stored only as a digest', async () => {
    const { key, accountId, keyId } = await t.ctx.account({ credit: '50.00' });
    const response = await t.ctx.app.inject({ method: 'POST', url: '/dashboard/session', headers: { 'x-authorization': key, origin: ORIGIN, host: HOST } });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ accountId, currency: 'RON', environment: 'staging', scope: 'full', keyId });
    const cookie = response.cookies.find((c) => c.name === 'topup_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.secure).toBeUndefined(); // staging runs on plain HTTP; production's is Secure (below)
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await t.ctx.deps.store.db.selectFrom('dashboard_sessions').selectAll().where('api_key_id', '=', keyId).execute();
    expect(stored.map((s) => s.digest)).toEqual([createHash('sha256').update(cookie.value).digest('hex')]);
    const rows = JSON.stringify(stored, (_name, value: unknown) => (typeof value === 'bigint' ? String(value) : value));
    expect(rows).not.toContain(cookie.value);
    expect(rows).not.toContain(key);

    const whoami = await asBrowser(t.ctx, cookie.value, 'GET', '/dashboard/session');
    expect(whoami.json()).toEqual({ accountId, currency: 'RON', environment: 'staging', scope: 'full', keyId });
    expect((await asBrowser(t.ctx, cookie.value, 'GET', '/v1/account/balance')).json()).toEqual({ balance: 50, currency: 'RON' });
  });

  it('refuses to sign in with a bad key (the API\'s 401 codes) or from another site', async () => {
    const { key } = await t.ctx.account();
    const attempt = (headers: Record<string, string>) => t.ctx.app.inject({ method: 'POST', url: '/dashboard/session', headers: { host: HOST, ...headers } });
    const bad = await attempt({ 'x-authorization': 'tk_test_notakey', origin: ORIGIN });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ code: 'invalid_api_key' });
    expect(bad.cookies).toEqual([]);
    expect((await attempt({ origin: ORIGIN })).json()).toMatchObject({ code: 'missing_api_key' });
    const foreign = await attempt({ 'x-authorization': key, origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ code: 'cross_site_request', status: 403 });
    expect(foreign.cookies).toEqual([]);
    expect((await attempt({ 'x-authorization': key })).json()).toMatchObject({ code: 'cross_site_request' });
  });

  it('takes unsafe requests with the cookie only from this site\'s Origin; safe ones need none', async () => {
    const { key } = await t.ctx.account({ credit: '100.00' });
    const session = await signIn(t.ctx, key);
    const created = { name: 'from-the-dashboard' };
    for (const origin of [null, 'https://evil.example', 'http://127.0.0.1:9999', 'null']) {
      const refused = await asBrowser(t.ctx, session, 'POST', '/v1/keys', created, origin);
      expect(refused.statusCode, String(origin)).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'cross_site_request' });
    }
    expect((await t.ctx.call(key, { method: 'GET', url: '/v1/keys' })).json().data).toHaveLength(1); // nothing was made
    const made = await asBrowser(t.ctx, session, 'POST', '/v1/keys', created);
    expect(made.statusCode).toBe(201);
    expect((await asBrowser(t.ctx, session, 'GET', '/v1/keys')).json().data).toHaveLength(2);
  });

  it('acts with the scope of its key: a read key\'s session is refused every change', async () => {
    const { key } = await t.ctx.account({ credit: '100.00' });
    const reader = (await t.ctx.call(key, { method: 'POST', url: '/v1/keys', payload: { scope: 'read' } })).json().key;
    const session = await signIn(t.ctx, reader);
    expect((await asBrowser(t.ctx, session, 'GET', '/dashboard/session')).json()).toMatchObject({ scope: 'read' });
    expect((await asBrowser(t.ctx, session, 'GET', '/v1/account')).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['POST', '/v1/keys', {}],
      ['POST', '/v1/webhooks', { name: 'x', url: 'https://example.com/h' }],
      ['POST', '/v1/recharge/quote', { recharges: [{ phone_number: '0744123456', amount: 5 }] }],
      ['DELETE', '/v1/keys/key_whatever', undefined],
    ] as const) {
      const refused = await asBrowser(t.ctx, session, method, url, payload);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'insufficient_scope' });
    }
  });

  it('ends when its key is revoked, at once and in every process (read from the store, not a cache)', async () => {
    const { key, keyId } = await t.ctx.account();
    const session = await signIn(t.ctx, key);
    // Another process of the same service, on the same database.
    const other = await testDeps(t.ctx.database.target, FAST_SIMULATOR, { clock: t.ctx.clock });
    const otherApp = await buildApp(other);
    try {
      const there = () => otherApp.inject({ method: 'GET', url: '/v1/account/balance', cookies: { topup_session: session } });
      expect((await there()).statusCode).toBe(200);
      expect((await t.ctx.call(key, { method: 'DELETE', url: `/v1/keys/${keyId}` })).statusCode).toBe(204);
      const ended = await there();
      expect(ended.statusCode).toBe(401);
      expect(ended.json()).toMatchObject({ code: 'invalid_session' });
      expect((await asBrowser(t.ctx, session, 'GET', '/dashboard/session')).json()).toMatchObject({ code: 'invalid_session' });
    } finally {
      await otherApp.close();
      await other.store.close();
    }
  });

  it('ends after 12 hours idle; each use keeps it alive', async () => {
    const { key } = await t.ctx.account();
    const kept = await signIn(t.ctx, key);
    const idle = await signIn(t.ctx, key);
    for (let i = 0; i < 3; i++) {
      t.ctx.clock.advance(6 * HOUR);
      expect((await asBrowser(t.ctx, kept, 'GET', '/v1/account')).statusCode, `after ${(i + 1) * 6} h`).toBe(200);
    }
    const ended = await asBrowser(t.ctx, idle, 'GET', '/v1/account');
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toMatchObject({ code: 'invalid_session' });
    t.ctx.clock.advance(12 * HOUR);
    expect((await asBrowser(t.ctx, kept, 'GET', '/v1/account')).statusCode).toBe(401);
  });

  it('signs out: the cookie is cleared and the session is gone from the store', async () => {
    const { key, keyId } = await t.ctx.account();
    const session = await signIn(t.ctx, key);
    expect((await asBrowser(t.ctx, session, 'DELETE', '/dashboard/session', undefined, 'https://evil.example')).statusCode).toBe(403);
    const out = await asBrowser(t.ctx, session, 'DELETE', '/dashboard/session');
    expect(out.statusCode).toBe(204);
    const cleared = out.cookies.find((c) => c.name === 'topup_session')!;
    expect(cleared.value).toBe('');
    expect(cleared.expires!.getTime()).toBeLessThan(Date.now());
    expect(await t.ctx.deps.store.db.selectFrom('dashboard_sessions').selectAll().where('api_key_id', '=', keyId).execute()).toEqual([]);
    expect((await asBrowser(t.ctx, session, 'GET', '/v1/account')).json()).toMatchObject({ code: 'invalid_session' });
    // Signing out of an ended session (or none) is answered the same.
    expect((await asBrowser(t.ctx, session, 'DELETE', '/dashboard/session')).statusCode).toBe(204);
  });

  it('prefers an X-Authorization key to the cookie; a made-up session id is 401 and its cookie cleared', async () => {
    const { key } = await t.ctx.account({ credit: '7.00' });
    const other = await t.ctx.account({ credit: '9.00' });
    const session = await signIn(t.ctx, other.key);
    const both = await t.ctx.app.inject({ method: 'GET', url: '/v1/account/balance', headers: { 'x-authorization': key }, cookies: { topup_session: session } });
    expect(both.json()).toEqual({ balance: 7, currency: 'RON' });
    const forged = await asBrowser(t.ctx, 'x'.repeat(43), 'GET', '/v1/account');
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'invalid_session' });
    expect(forged.cookies.find((c) => c.name === 'topup_session')).toMatchObject({ value: '' });
  });

  it('refuses a tab that names another key than the session\'s (another tab signed in since), and ends the old session on a new sign-in', async () => {
    const first = await t.ctx.account();
    const second = await t.ctx.account();
    const before = await signIn(t.ctx, first.key);
    const headers = (keyId: string) => ({ host: HOST, 'x-dashboard-key': keyId });
    expect((await t.ctx.app.inject({ method: 'GET', url: '/v1/account', cookies: { topup_session: before }, headers: headers(first.keyId) })).statusCode).toBe(200);
    // Signing in again from the same browser (the cookie goes along) replaces the session.
    const again = await t.ctx.app.inject({
      method: 'POST',
      url: '/dashboard/session',
      cookies: { topup_session: before },
      headers: { 'x-authorization': second.key, origin: ORIGIN, host: HOST },
    });
    const after = sessionCookie(again);
    expect((await asBrowser(t.ctx, before, 'GET', '/v1/account')).json()).toMatchObject({ code: 'invalid_session' });
    // The first tab still believes it is the first account: its requests are refused, not run as the second.
    const stale = await t.ctx.app.inject({ method: 'POST', url: '/v1/keys', payload: {}, cookies: { topup_session: after }, headers: { ...headers(first.keyId), origin: ORIGIN } });
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toMatchObject({ code: 'invalid_session' });
    expect((await t.ctx.call(second.key, { method: 'GET', url: '/v1/keys' })).json().data).toHaveLength(1);
    expect((await t.ctx.app.inject({ method: 'GET', url: '/v1/account', cookies: { topup_session: after }, headers: headers(second.keyId) })).statusCode).toBe(200);
  });

  it('forgets idle sessions and those of revoked keys when pruning', async () => {
    const sessionsOf = async (keyId: string) => (await t.ctx.deps.store.db.selectFrom('dashboard_sessions').select('digest').where('api_key_id', '=', keyId).execute()).length;
    await pruneExpired(t.ctx.deps); // what earlier tests left idle
    const kept = await t.ctx.account();
    const revoked = await t.ctx.account();
    await signIn(t.ctx, kept.key);
    await signIn(t.ctx, revoked.key);
    await t.ctx.call(revoked.key, { method: 'DELETE', url: `/v1/keys/${revoked.keyId}` });
    expect(await pruneExpired(t.ctx.deps)).toMatchObject({ dashboardSessions: 1 });
    expect([await sessionsOf(kept.keyId), await sessionsOf(revoked.keyId)]).toEqual([1, 0]);
    t.ctx.clock.advance(11 * HOUR);
    await pruneExpired(t.ctx.deps);
    expect(await sessionsOf(kept.keyId)).toBe(1);
    t.ctx.clock.advance(2 * HOUR);
    expect((await pruneExpired(t.ctx.deps)).dashboardSessions).toBeGreaterThanOrEqual(1);
    expect(await sessionsOf(kept.keyId)).toBe(0);
  });

  it('keeps at most 20 sessions per key: signing in a 21st time ends the least recently used', async () => {
    const { key, keyId } = await t.ctx.account();
    const first = await signIn(t.ctx, key);
    t.ctx.clock.advance(2 * 60_000);
    const others: string[] = [];
    for (let i = 0; i < 19; i++) others.push(await signIn(t.ctx, key));
    t.ctx.clock.advance(2 * 60_000);
    expect((await asBrowser(t.ctx, first, 'GET', '/v1/account')).statusCode).toBe(200); // now the most recently used
    await signIn(t.ctx, key);
    const count = await t.ctx.deps.store.db.selectFrom('dashboard_sessions').select('digest').where('api_key_id', '=', keyId).execute();
    expect(count).toHaveLength(20);
    expect((await asBrowser(t.ctx, first, 'GET', '/v1/account')).statusCode).toBe(200);
    const ended = await Promise.all(others.map(async (s) => (await asBrowser(t.ctx, s, 'GET', '/v1/account')).statusCode));
    expect(ended.filter((status) => status === 401)).toHaveLength(1);
  });

  it('gives the API reference page (/docs, same origin as the session) a CSP that loads nothing from elsewhere', async () => {
    const docs = await t.ctx.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    const csp = docs.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/https:|unsafe-inline|upgrade-insecure-requests|validator/);
  });

  it('serves the dashboard page with a strict CSP and its hashed assets cached for a year, precompressed', async () => {
    const page = await t.ctx.app.inject({ method: 'GET', url: '/dashboard/orders' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(page.headers).toMatchObject({ 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' });
    const assets = [...page.body.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toHaveLength(2);
    // Nothing loads from outside the server.
    expect(page.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    for (const url of assets) {
      const asset = await t.ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(asset.statusCode, url).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers['content-encoding']).toBe('br');
    }
    const built = readdirSync('dist/dashboard/assets').filter((f) => f.endsWith('.js.gz'));
    expect(built).toHaveLength(1);
    expect((await t.ctx.app.inject({ method: 'GET', url: '/dashboard/assets/nothing.js' })).statusCode).toBe(404);
  });
});

describeEachDialect('dashboard sessions in production', (dialect) => {
  const t = useTestContext(dialect, { ...FAST_SIMULATOR, TOPUP_ENV: 'production' });

  it('sets a Secure, __Host- prefixed cookie', async () => {
    const { key } = await t.ctx.account();
    const response = await t.ctx.app.inject({ method: 'POST', url: '/dashboard/session', headers: { 'x-authorization': key, origin: 'https://topup.example', host: 'topup.example' } });
    expect(response.statusCode, response.body).toBe(201);
    const cookie = response.cookies.find((c) => c.name === '__Host-topup_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    const balance = await t.ctx.app.inject({ method: 'GET', url: '/v1/account/balance', cookies: { '__Host-topup_session': cookie.value } });
    expect(balance.statusCode).toBe(200);
    // A page on plain http of the same host is another site here.
    const change = (origin: string) =>
      t.ctx.app.inject({ method: 'POST', url: '/v1/keys', payload: {}, cookies: { '__Host-topup_session': cookie.value }, headers: { origin, host: 'topup.example' } });
    expect((await change('http://topup.example')).json()).toMatchObject({ code: 'cross_site_request' });
    expect((await change('https://topup.example')).statusCode).toBe(201);
  });
});

describeEachDialect('dashboard sessions and the failed-attempt limit', (dialect) => {
  const t = useTestContext(dialect, { ...FAST_SIMULATOR, TOPUP_AUTH_FAILURES_PER_MINUTE: '3' });

  it('counts made-up session ids as failed attempts, like made-up keys', async () => {
    const guess = () => t.ctx.app.inject({ method: 'GET', url: '/v1/account', cookies: { topup_session: 'y'.repeat(43) }, remoteAddress: '203.0.113.9' });
    const first = await guess();
    expect(first.json()).toMatchObject({ code: 'invalid_session' });
    expect(first.headers['ratelimit-remaining']).toBe('2');
    await guess();
    await guess();
    const blocked = await guess();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'rate_limited' });
  });
});
