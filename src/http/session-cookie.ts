import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { isReadMethod } from '../domain/api-key.js';
import { TransportError } from './problem.js';

/**
 * The dashboard's session cookie. In production it is `__Host-` prefixed and `Secure`: browsers then
 * refuse it unless it came over HTTPS, for the whole host, from this very host (no Domain).
 */
export const sessionCookieName = (config: Config): string => (config.environment === 'production' ? '__Host-topup_session' : 'topup_session');

/**
 * The dashboard's pages name the key they signed in with on every request: a tab still showing one
 * account never acts on another after the cookie changed in another tab.
 */
export const SESSION_KEY_HEADER = 'x-dashboard-key';

/** HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), no Max-Age (idle expiry is the server's). */
export const sessionCookieOptions = (config: Config): CookieSerializeOptions => ({
  httpOnly: true,
  sameSite: 'strict',
  secure: config.environment === 'production',
  path: '/',
});

/**
 * Whether a request authenticated by the session cookie may go on: reads always; the others only with
 * an `Origin` of this very host (browsers send one on every such request, so a missing Origin is
 * refused too), and in production an https one (a page injected into plain http on the same host is
 * another site). SameSite=Strict already keeps the cookie off other sites' requests; this is the
 * second lock. Behind a reverse proxy, pass the Host header through (or configure upstream callbacks'
 * TOPUP_PUBLIC_URL, whose origin is accepted too).
 */
function fromOwnOrigin(request: FastifyRequest, config: Config): boolean {
  if (isReadMethod(request.method)) return true;
  const origin = request.headers.origin;
  if (origin === undefined || origin === 'null') return false;
  const host = request.headers.host;
  if (host === undefined) return false;
  let claimed: URL;
  let served: URL;
  try {
    claimed = new URL(origin);
    // Read the Host header in the Origin's scheme, so that a default port written or not compares equal.
    served = new URL(`${claimed.protocol}//${host}`);
  } catch {
    return false;
  }
  if (config.environment === 'production' && claimed.protocol !== 'https:') return false;
  const publicUrl = config.upstreamCallbacks?.publicUrl;
  if (publicUrl !== undefined && new URL(publicUrl).origin === claimed.origin) return true;
  return claimed.host === served.host;
}

/** Refuses (403 `cross_site_request`, with `message`) a request that `fromOwnOrigin` does not let through. */
export function requireOwnOrigin(request: FastifyRequest, config: Config, message: string): void {
  if (!fromOwnOrigin(request, config)) throw new TransportError('cross_site_request', message);
}
