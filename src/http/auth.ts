import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, type KeyCache } from '../app/api-keys.js';
import { sessionPrincipal } from '../app/dashboard-sessions.js';
import type { Deps } from '../app/deps.js';
import { countAuthFailure, type WindowUse } from '../app/rate-limit.js';
import { scopeAllows, type Principal } from '../domain/api-key.js';
import { AppError } from '../domain/errors.js';
import { TransportError } from './problem.js';
import { requireOwnOrigin, SESSION_KEY_HEADER, sessionCookieName, sessionCookieOptions } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const AUTH_CODES = new Set(['missing_api_key', 'invalid_api_key', 'wrong_environment', 'invalid_session']);
/** Addresses blocked at once in one process; past it the oldest block is forgotten (it is counted still). */
const MAX_BLOCKED = 100_000;

/** The draft IETF RateLimit headers, as the per-key limiter sends them, for the failed-auth budget. */
function rateLimitHeaders(reply: FastifyReply, limit: number, used: WindowUse): void {
  reply.header('ratelimit-limit', String(limit));
  reply.header('ratelimit-remaining', String(Math.max(0, limit - used.count)));
  reply.header('ratelimit-reset', String(Math.ceil(used.ttlMs / 1000)));
}

/**
 * Every route registered in `scope` requires `X-Authorization`; it runs before the body is read. With
 * `sessions`, a request without that header may instead carry the dashboard's session cookie: it then
 * acts as the key the session was made from (same account, same scope), and an unsafe method must come
 * from this site's own pages (`Origin`). With `signIn`, only the header counts, and a read key passes
 * too (signing in changes nothing; its session keeps the read scope).
 *
 * Requests without a valid key are counted per client address, and past TOPUP_AUTH_FAILURES_PER_MINUTE
 * an address is answered 429 before its key is even hashed or looked up (made-up keys cost a hash and
 * a lookup each, and the per-key limit never sees them). A valid key from a blocked address waits too,
 * until the minute is over.
 *
 * Failures are counted in the store (shared by every process); the block itself is kept in this
 * process, learned from the count of the failure that crossed the limit, so that an authenticated
 * request reads nothing more than before.
 */
export function requireApiKey(scope: FastifyInstance, deps: Deps, cache: KeyCache, options: { sessions?: boolean; signIn?: boolean } = {}): void {
  const cookieName = sessionCookieName(deps.config);
  const cookieOptions = sessionCookieOptions(deps.config);
  const limit = deps.config.authFailuresPerMinute;
  const blocked = new Map<string, { count: number; until: number }>();
  scope.addHook('onRequest', async (request, reply) => {
    if (limit > 0 && blocked.size > 0) {
      const block = blocked.get(request.ip);
      const now = deps.clock.now();
      if (block && block.until <= now) blocked.delete(request.ip);
      else if (block) {
        const used = { count: block.count, ttlMs: block.until - now };
        rateLimitHeaders(reply, limit, used);
        const seconds = Math.ceil(used.ttlMs / 1000);
        reply.header('retry-after', String(seconds));
        throw new TransportError('rate_limited', `Too many requests without a valid API key from this address; retry in ${seconds} s.`);
      }
    }
    const header = request.headers['x-authorization'];
    const sessionId = options.sessions && header === undefined ? request.cookies[cookieName] : undefined;
    if (sessionId !== undefined) {
      requireOwnOrigin(request, deps.config, 'A signed-in dashboard request must come from the dashboard itself (its Origin is missing or another site).');
    }
    try {
      request.principal =
        sessionId === undefined ? await authenticate(deps, cache, Array.isArray(header) ? header[0] : header) : await sessionCaller(deps, request, sessionId);
      if (!options.signIn && !scopeAllows(request.principal.scope, request.method, request.routeOptions.url ?? '')) {
        throw new AppError('insufficient_scope', 'This is a read key: it may call the GET endpoints and POST /v1/ping only. Use a full key to change anything.');
      }
    } catch (error) {
      // An ended session's cookie is cleared, so the browser stops sending it (and counting failures).
      if (sessionId !== undefined && error instanceof AppError && error.code === 'invalid_session') reply.clearCookie(cookieName, cookieOptions);
      if (limit > 0 && error instanceof AppError && AUTH_CODES.has(error.code)) {
        const used = await countAuthFailure(deps, request.ip);
        rateLimitHeaders(reply, limit, used);
        if (used.count >= limit) {
          if (blocked.size >= MAX_BLOCKED) blocked.delete(blocked.keys().next().value!);
          blocked.set(request.ip, { count: used.count, until: deps.clock.now() + used.ttlMs });
        }
      }
      throw error;
    }
  });
}

/**
 * The principal of a session; when the page says which key it signed in with (another tab may have
 * signed in with another key since, replacing the cookie), a different one is an ended session for it.
 */
async function sessionCaller(deps: Deps, request: FastifyRequest, sessionId: string): Promise<Principal> {
  const principal = await sessionPrincipal(deps, sessionId);
  const expected = request.headers[SESSION_KEY_HEADER];
  if (typeof expected === 'string' && expected !== principal.keyId) {
    throw new AppError('invalid_session', 'This browser has since signed in with another key (in another tab?). Sign in again here.');
  }
  return principal;
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route reached without authentication');
  return request.principal;
}
