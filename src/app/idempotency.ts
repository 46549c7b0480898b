import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { AppError } from '../domain/errors.js';
import type { Tx } from '../store/database.js';
import * as keys from '../store/idempotency.repository.js';
import type { Deps } from './deps.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

export interface IdempotentResult extends StoredResponse {
  readonly replayed: boolean;
}

/** Hash of the request as parsed, with keys sorted: the same JSON sent with another key order is the same request. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(stringify(body) ?? 'null').digest('hex');
}

export function checkIdempotencyKey(key: string): void {
  if (!KEY_FORMAT.test(key)) {
    throw new AppError('validation_failed', 'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.', [
      { field: 'Idempotency-Key', code: 'invalid_idempotency_key', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters.' },
    ]);
  }
}

type Holder = { accountId: string; key: string; lockedUntil: number };

async function acquire(deps: Deps, accountId: string, key: string, hash: string): Promise<Holder | StoredResponse> {
  const now = deps.clock.now();
  // A request holding a key longer than this is taken to have died, and a retry may take the key over.
  // That is safe even if it still runs: its commit checks it still holds the key, or rolls back.
  const claim = { accountId, key, requestHash: hash, lockedUntil: now + deps.config.idempotencyLockMs, createdAt: now };
  const holder = { accountId, key, lockedUntil: claim.lockedUntil };
  if (await deps.store.write((db) => keys.insertRunningKey(db, claim))) return holder;
  const existing = await keys.findIdempotencyRecord(deps.store.db, accountId, key);
  const stale = { now, expiredBefore: now - IDEMPOTENCY_TTL_MS };
  if (!existing || existing.createdAt < stale.expiredBefore) {
    // Expired (or deleted between our two reads): the key is free for a new request.
    if (await deps.store.write((db) => keys.takeOverKey(db, claim, stale))) return holder;
    throw new AppError('idempotency_key_in_use', 'Another request with this Idempotency-Key is being processed; retry shortly.');
  }
  if (existing.requestHash !== hash) {
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.');
  }
  if (existing.state === 'done') return { status: existing.statusCode ?? 200, body: JSON.parse(existing.response ?? 'null') };
  if (existing.lockedUntil < now && (await deps.store.write((db) => keys.takeOverKey(db, claim, stale)))) return holder;
  throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry shortly.');
}

/**
 * Runs `work` at most once per (account, key, body) for 24 hours. `work` receives `remember`, which it
 * must call inside its own transaction so the stored response commits with what it describes. A
 * request that fails keeps no key.
 */
export async function idempotent(
  deps: Deps,
  accountId: string,
  key: string | undefined,
  body: unknown,
  work: (remember: (tx: Tx, response: StoredResponse) => Promise<void>) => Promise<StoredResponse>,
): Promise<IdempotentResult> {
  if (key === undefined) return { ...(await work(async () => {})), replayed: false };
  checkIdempotencyKey(key);
  const acquired = await acquire(deps, accountId, key, requestHash(body));
  if (!('lockedUntil' in acquired)) return { ...acquired, replayed: true };
  const remember = async (tx: Tx, response: StoredResponse) => {
    if (!(await keys.completeKey(tx, acquired, response.status, JSON.stringify(response.body)))) {
      throw new AppError('idempotency_key_in_use', 'This request took too long and its Idempotency-Key was taken over; nothing was stored.');
    }
  };
  try {
    return { ...(await work(remember)), replayed: false };
  } catch (error) {
    await deps.store.write((db) => keys.releaseKey(db, acquired)).catch((releaseError: unknown) =>
      deps.log.error({ err: releaseError }, 'could not release an idempotency key'),
    );
    throw error;
  }
}
