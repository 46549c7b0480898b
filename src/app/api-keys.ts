import { timingSafeEqual } from 'node:crypto';
import type { ApiKey, KeyOwner, KeyScope, Principal } from '../domain/api-key.js';
import { environmentOfKey, KEY_PREFIX } from '../domain/environment.js';
import { AppError } from '../domain/errors.js';
import * as keys from '../store/api-keys.repository.js';
import { requireAccount } from './accounts.js';
import type { Deps } from './deps.js';
import { digestOf, newId, randomBase32 } from './ids.js';
import type { Clock } from './ports.js';


/**
 * A key lookup is cached for less than the 5 seconds DESIGN.md allows a revocation to take, so
 * revoking a key from any process stops it everywhere in time without a database read per request.
 */
export const KEY_CACHE_TTL_MS = 2_000;
const KEY_CACHE_MAX = 10_000;

export class KeyCache {
  private readonly entries = new Map<string, { owner: KeyOwner | undefined; expiresAt: number }>();

  constructor(private readonly clock: Clock) {}

  get(digest: string): { owner: KeyOwner | undefined } | undefined {
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.entries.delete(digest);
      return undefined;
    }
    return entry;
  }

  set(digest: string, owner: KeyOwner | undefined): void {
    // Full: forget the oldest entry (a Map keeps insertion order), never the whole cache, so a flood of
    // made-up keys cannot evict the good ones all at once.
    this.entries.delete(digest);
    if (this.entries.size >= KEY_CACHE_MAX) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(digest, { owner, expiresAt: this.clock.now() + KEY_CACHE_TTL_MS });
  }

  forgetKey(keyId: string): void {
    for (const [digest, entry] of this.entries) if (entry.owner?.keyId === keyId) this.entries.delete(digest);
  }

  private readonly touched = new Map<string, number>();

  /** Whether this key's last use should be written now: at most once a minute per key and process. */
  shouldTouch(keyId: string): boolean {
    const now = this.clock.now();
    const last = this.touched.get(keyId);
    if (last !== undefined && now - last < 60_000) return false;
    this.touched.delete(keyId);
    if (this.touched.size >= KEY_CACHE_MAX) this.touched.delete(this.touched.keys().next().value!);
    this.touched.set(keyId, now);
    return true;
  }
}

/** Issues a key for an account. The key itself is returned this once; only its digest is stored. */
export async function createApiKey(
  deps: Deps,
  accountId: string,
  options: { name?: string | null; scope?: KeyScope } = {},
): Promise<{ apiKey: ApiKey; key: string }> {
  await requireAccount(deps, accountId);
  const prefix = KEY_PREFIX[deps.config.environment];
  const key = `${prefix}${randomBase32(32)}`;
  const apiKey: ApiKey = {
    id: newId('key'),
    accountId,
    environment: deps.config.environment,
    displayPrefix: key.slice(0, prefix.length + 4),
    digest: digestOf(key),
    name: options.name ?? null,
    scope: options.scope ?? 'full',
    createdAt: deps.clock.now(),
    revokedAt: null,
    lastUsedAt: null,
  };
  await keys.insertApiKey(deps.store.db, apiKey);
  return { apiKey, key };
}

/**
 * Revokes a key (revoking twice keeps the first time); other processes stop honouring it within 2 s.
 * With `accountId`, only a key of that account (a customer revoking their own).
 */
export async function revokeApiKey(deps: Deps, keyId: string, cache?: KeyCache, accountId?: string): Promise<void> {
  const found = await keys.revokeApiKey(deps.store.db, keyId, deps.clock.now(), accountId);
  if (!found) throw new AppError('not_found', `No API key ${keyId}.`);
  cache?.forgetKey(keyId);
}

export async function listApiKeys(deps: Deps, accountId: string): Promise<ApiKey[]> {
  await requireAccount(deps, accountId);
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
  if (cache.shouldTouch(owner.keyId)) {
    // Kept to the minute, off the request's path: a failed write only loses a last-used time.
    const at = deps.clock.now();
    void deps.store.write((db) => keys.touchApiKeys(db, [owner.keyId], at)).catch((error: unknown) => deps.log.warn({ err: error }, 'could not note a key as used'));
  }
  return { keyId: owner.keyId, accountId: owner.accountId, currency: owner.currency, environment: owner.environment, scope: owner.scope };
}
