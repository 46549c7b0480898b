import type { Currency } from './currency.js';
import type { Environment } from './environment.js';

/** What a key may do: everything, or read (the GET endpoints and POST /v1/ping). */
export const KEY_SCOPES = ['full', 'read'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** The methods that only read: a read key may use them, and they need no proof of where they came from. */
export const isReadMethod = (method: string): boolean => method === 'GET' || method === 'HEAD';

/** Whether a key of `scope` may call `method` on `route` (a route pattern). */
export function scopeAllows(scope: KeyScope, method: string, route: string): boolean {
  return scope === 'full' || isReadMethod(method) || (method === 'POST' && route === '/v1/ping');
}

/** An API key as stored: never the key itself, only its digest and a prefix safe to show. */
export interface ApiKey {
  readonly id: string;
  readonly accountId: string;
  readonly environment: Environment;
  readonly name: string | null;
  readonly scope: KeyScope;
  readonly lastUsedAt: number | null;
  /** The first characters of the key, so a person can tell keys apart. */
  readonly displayPrefix: string;
  /** Hex SHA-256 of the whole key. */
  readonly digest: string;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

/** A key found by its digest, with what authenticating needs of its account. */
export interface KeyOwner {
  readonly keyId: string;
  readonly accountId: string;
  readonly currency: Currency;
  readonly environment: Environment;
  readonly digest: string;
  readonly revoked: boolean;
  readonly scope: KeyScope;
}

/** Who is calling: the key that authenticated the request and the account it acts for. */
export interface Principal {
  readonly keyId: string;
  readonly accountId: string;
  readonly currency: Currency;
  readonly environment: Environment;
  readonly scope: KeyScope;
}
