import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import { AppError } from '../domain/errors.js';
import type { Tx } from '../store/database.js';
import * as keys from '../store/idempotency.repository.js';
import type { Deps } from './deps.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** A transport's answer, stored as given and replayed as is: the use case never reads it. */
export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

export interface IdempotencyOptions<R> {
  /** The caller's Idempotency-Key. */
  readonly key: string;
  /** How the transport answers a result; stored in the result's own transaction. */
  readonly respond: (result: R) => StoredResponse;
}

export type IdempotentOutcome<R> =
  | { readonly replayed: false; readonly result: R; readonly response: StoredResponse | undefined }
  | { readonly replayed: true; readonly response: StoredResponse };

/** Hash of the request as parsed, with keys sorted: the same JSON sent with another key order is the same request. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(stringify(body) ?? 'null').digest('hex');
}

function checkIdempotencyKey(key: string): void {
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
 * must call inside its own transaction with its result: the transport's answer to that result is then
 * stored with what it describes, and a replay returns it. A request that fails keeps no key.
 */
export async function idempotent<R>(
  deps: Deps,
  accountId: string,
  options: IdempotencyOptions<R> | undefined,
  body: unknown,
  work: (remember: (tx: Tx, result: R) => Promise<void>) => Promise<R>,
): Promise<IdempotentOutcome<R>> {
  if (options === undefined) return { replayed: false, result: await work(async () => {}), response: undefined };
  checkIdempotencyKey(options.key);
  const acquired = await acquire(deps, accountId, options.key, requestHash(body));
  if (!('lockedUntil' in acquired)) return { replayed: true, response: acquired };
  let response: StoredResponse | undefined;
  const remember = async (tx: Tx, result: R) => {
    const answer = options.respond(result);
    if (!(await keys.completeKey(tx, acquired, answer.status, JSON.stringify(answer.body)))) {
      throw new AppError('idempotency_key_in_use', 'This request took too long and its Idempotency-Key was taken over; nothing was stored.');
    }
    response = answer;
  };
  try {
    const result = await work(remember);
    return { replayed: false, result, response };
  } catch (error) {
    await deps.store.write((db) => keys.releaseKey(db, acquired)).catch((releaseError: unknown) =>
      deps.log.error({ err: releaseError }, 'could not release an idempotency key'),
    );
    throw error;
  }
}
