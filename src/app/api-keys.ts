import { createHash, timingSafeEqual } from 'node:crypto';
import type { Currency } from '../domain/currency.js';
import { environmentOfKey, KEY_PREFIX, type Environment } from '../domain/environment.js';
import { AppError } from '../domain/errors.js';
import * as keys from '../store/api-keys.repository.js';
import { requireAccount } from './accounts.js';
import type { Clock, Deps } from './deps.js';
import { newId, randomBase32 } from './ids.js';

/** Who is calling: the key that authenticated the request and the account it acts for. */
export interface Principal {
  readonly keyId: string;
  readonly accountId: string;
  readonly currency: Currency;
  readonly environment: Environment;
}

const digestOf = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * A key lookup is cached for less than the 5 seconds DESIGN.md allows a revocation to take, so
 * revoking a key from any process stops it everywhere in time without a database read per request.
 */
export const KEY_CACHE_TTL_MS = 2_000;
const KEY_CACHE_MAX = 10_000;

export class KeyCache {
  private readonly entries = new Map<string, { owner: keys.KeyOwner | undefined; expiresAt: number }>();

  constructor(private readonly clock: Clock) {}

  get(digest: string): { owner: keys.KeyOwner | undefined } | undefined {
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.entries.delete(digest);
      return undefined;
    }
    return entry;
  }

  set(digest: string, owner: keys.KeyOwner | undefined): void {
    if (this.entries.size >= KEY_CACHE_MAX) this.entries.clear();
    this.entries.set(digest, { owner, expiresAt: this.clock.now() + KEY_CACHE_TTL_MS });
  }

  forgetKey(keyId: string): void {
    for (const [digest, entry] of this.entries) if (entry.owner?.keyId === keyId) this.entries.delete(digest);
  }
}

export async function createApiKey(deps: Deps, accountId: string): Promise<{ id: string; key: string; account: string }> {
  await requireAccount(deps, accountId);
  const key = `${KEY_PREFIX[deps.config.environment]}${randomBase32(32)}`;
  const id = newId('key');
  await keys.insertApiKey(deps.store.db, {
    id,
    accountId,
    environment: deps.config.environment,
    displayPrefix: key.slice(0, KEY_PREFIX[deps.config.environment].length + 4),
    digest: digestOf(key),
    createdAt: deps.clock.now(),
  });
  return { id, key, account: accountId };
}

export async function revokeApiKey(deps: Deps, keyId: string, cache?: KeyCache): Promise<{ id: string; revoked: true }> {
  const found = await keys.revokeApiKey(deps.store.db, keyId, deps.clock.now());
  if (!found) throw new AppError('not_found', `No API key ${keyId}.`);
  cache?.forgetKey(keyId);
  return { id: keyId, revoked: true };
}

export function listApiKeys(deps: Deps, accountId: string) {
  return keys.listApiKeys(deps.store.db, accountId);
}

/**
 * Resolves an `X-Authorization` value to a principal, or throws the matching 401 code. The key is
 * hashed before any lookup, and the stored digest is compared in constant time.
 */
export async function authenticate(deps: Deps, cache: KeyCache, key: string | undefined): Promise<Principal> {
  if (key === undefined || key.trim() === '') {
    throw new AppError('missing_api_key', 'Send your API key in the X-Authorization header.');
  }
  const environment = environmentOfKey(key);
  if (environment === undefined) throw new AppError('invalid_api_key', 'The API key is not valid.');
  if (environment !== deps.config.environment) {
    throw new AppError(
      'wrong_environment',
      `This is a ${environment} key; this server is the ${deps.config.environment} environment. Use a ${KEY_PREFIX[deps.config.environment]}… key here.`,
    );
  }
  const digest = digestOf(key);
  let cached = cache.get(digest);
  if (!cached) {
    cached = { owner: await keys.findKeyOwnerByDigest(deps.store.db, digest) };
    cache.set(digest, cached.owner);
  }
  const owner = cached.owner;
  if (!owner || owner.revoked || !timingSafeEqual(Buffer.from(owner.digest), Buffer.from(digest))) {
    throw new AppError('invalid_api_key', 'The API key is not valid or has been revoked.');
  }
  return { keyId: owner.keyId, accountId: owner.accountId, currency: owner.currency, environment: owner.environment };
}
