import type { ApiKey, KeyOwner } from '../domain/api-key.js';
import type { Currency } from '../domain/currency.js';
import type { Environment } from '../domain/environment.js';
import { num } from './convert.js';
import type { Db } from './database.js';

export async function insertApiKey(db: Db, key: Omit<ApiKey, 'revokedAt'>): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({
      id: key.id,
      account_id: key.accountId,
      environment: key.environment,
      display_prefix: key.displayPrefix,
      digest: key.digest,
      created_at: key.createdAt,
    })
    .execute();
}

export async function findKeyOwnerByDigest(db: Db, digest: string): Promise<KeyOwner | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select(['api_keys.id', 'api_keys.account_id', 'api_keys.environment', 'api_keys.digest', 'api_keys.revoked_at', 'accounts.currency'])
    .where('api_keys.digest', '=', digest)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    keyId: row.id,
    accountId: row.account_id,
    currency: row.currency as Currency,
    environment: row.environment as Environment,
    digest: row.digest,
    revoked: row.revoked_at !== null,
  };
}

/** Marks a key revoked; returns false when there is no such key. Revoking twice keeps the first time. */
export async function revokeApiKey(db: Db, id: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function listApiKeys(db: Db, accountId: string): Promise<ApiKey[]> {
  const rows = await db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at').execute();
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    environment: r.environment as Environment,
    displayPrefix: r.display_prefix,
    digest: r.digest,
    createdAt: num(r.created_at),
    revokedAt: r.revoked_at === null ? null : num(r.revoked_at),
  }));
}
