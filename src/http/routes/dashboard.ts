import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyCache } from '../../app/api-keys.js';
import { openSession, signOut } from '../../app/dashboard-sessions.js';
import type { Deps } from '../../app/deps.js';
import { problemResponses } from '../../contract/common.js';
import { principalOf, requireApiKey } from '../auth.js';
import { sendProblem } from '../error-handler.js';
import { requireOwnOrigin, sessionCookieName, sessionCookieOptions } from '../session-cookie.js';

/** Where `npm run build` leaves the dashboard: the same place from src/ (tests) and from dist/. */
const BUILT = fileURLToPath(new URL('../../../dist/dashboard/', import.meta.url));

/**
 * Nothing but this server's own scripts, styles and API: no inline script or style, no other origin,
 * no framing. The bundle is built to need nothing more.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
  reply.header('cross-origin-opener-policy', 'same-origin');
}

const SignedInSchema = Type.Object({
  accountId: Type.String(),
  currency: Type.String(),
  environment: Type.String(),
  scope: Type.String(),
  keyId: Type.String(),
});

/**
 * The customers' dashboard: its page (one HTML shell for every path under /dashboard), its hashed
 * assets (cached for a year), and its session: a key exchanged for an HttpOnly cookie and signed out.
 * The pages then call the public /v1 API with that cookie.
 */
export const dashboardRoutes =
  (deps: Deps, cache: KeyCache): FastifyPluginAsyncTypebox =>
  async (app) => {
    const built = existsSync(join(BUILT, 'index.html'));
    const shell = built ? readFileSync(join(BUILT, 'index.html')) : undefined;
    const hide = { hide: true };

    if (built) {
      await app.register(fastifyStatic, {
        root: join(BUILT, 'assets'),
        prefix: '/dashboard/assets/',
        // File names carry their content's hash: a new build is a new name, so a year is safe.
        immutable: true,
        maxAge: '365d',
        preCompressed: true,
        index: false,
        decorateReply: false,
        setHeaders: securityHeaders,
      });
    }
    const page = async (request: FastifyRequest, reply: FastifyReply) => {
      if (!shell) return sendProblem(request, reply, 'unavailable', 'The dashboard has not been built: run `npm run build`.');
      securityHeaders(reply);
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(shell);
    };
    app.get('/dashboard', { schema: hide }, page);
    app.get('/dashboard/*', { schema: hide }, page);

    const cookieName = sessionCookieName(deps.config);
    const cookieOptions = sessionCookieOptions(deps.config);

    // Signing in takes the key in X-Authorization, checked as on /v1 (same codes, same failed-attempt
    // block per address), never a cookie; it must come from the dashboard's own page.
    await app.register(async (signIn) => {
      requireApiKey(signIn, deps, cache, { signIn: true });
      signIn.post(
        '/dashboard/session',
        { schema: { ...hide, response: { 201: SignedInSchema, ...problemResponses } } },
        async (request, reply) => {
          requireOwnOrigin(request, deps.config, 'Sign in from the dashboard itself.');
          const principal = principalOf(request);
          const sessionId = await openSession(deps, principal, request.cookies[cookieName]);
          securityHeaders(reply);
          reply.setCookie(cookieName, sessionId, cookieOptions);
          return reply.code(201).send({ ...principal });
        },
      );
    });

    // Who is signed in (the session, or a key): the pages ask once, to know the account and its scope.
    await app.register(async (signedIn) => {
      requireApiKey(signedIn, deps, cache, { sessions: true });
      signedIn.get('/dashboard/session', { schema: { ...hide, response: { 200: SignedInSchema, ...problemResponses } } }, async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return { ...principalOf(request) };
      });
    });

    // Signing out needs no live session (an ended one is cleared all the same), only the dashboard's Origin.
    app.delete('/dashboard/session', { schema: hide }, async (request, reply) => {
      requireOwnOrigin(request, deps.config, 'Sign out from the dashboard itself.');
      const sessionId = request.cookies[cookieName];
      if (sessionId !== undefined) await signOut(deps, sessionId);
      return reply.clearCookie(cookieName, cookieOptions).code(204).send();
    });
  };
