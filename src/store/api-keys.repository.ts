import type { Selectable } from 'kysely';
import type { ApiKey, KeyOwner, KeyScope } from '../domain/api-key.js';
import type { Currency } from '../domain/currency.js';
import type { Environment } from '../domain/environment.js';
import { num } from './convert.js';
import type { Db } from './database.js';
import type { ApiKeysTable } from './schema.js';

export async function insertApiKey(db: Db, key: Omit<ApiKey, 'revokedAt' | 'lastUsedAt'>): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({
      id: key.id,
      account_id: key.accountId,
      environment: key.environment,
      display_prefix: key.displayPrefix,
      digest: key.digest,
      created_at: key.createdAt,
      name: key.name,
      scope: key.scope,
    })
    .execute();
}

const toApiKey = (r: Selectable<ApiKeysTable>): ApiKey => ({
  id: r.id,
  accountId: r.account_id,
  environment: r.environment as Environment,
  displayPrefix: r.display_prefix,
  digest: r.digest,
  name: r.name,
  scope: r.scope as KeyScope,
  createdAt: num(r.created_at),
  revokedAt: r.revoked_at === null ? null : num(r.revoked_at),
  lastUsedAt: r.last_used_at === null ? null : num(r.last_used_at),
});

export async function findKeyOwnerByDigest(db: Db, digest: string): Promise<KeyOwner | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select(['api_keys.id', 'api_keys.account_id', 'api_keys.environment', 'api_keys.digest', 'api_keys.revoked_at', 'api_keys.scope', 'accounts.currency'])
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
    scope: row.scope as KeyScope,
  };
}

/**
 * Marks a key revoked (of this account only, when given); returns false when there is no such key.
 * Revoking twice keeps the first time.
 */
export async function revokeApiKey(db: Db, id: string, at: number, accountId?: string): Promise<boolean> {
  let query = db
    .updateTable('api_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
    .where('id', '=', id);
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Notes that keys authenticated requests (kept to the minute by the caller). */
export async function touchApiKeys(db: Db, ids: readonly string[], at: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', 'in', [...ids]).execute();
}

export async function listApiKeys(db: Db, accountId: string): Promise<ApiKey[]> {
  const rows = await db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at').execute();
  return rows.map(toApiKey);
}
