import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Keys a customer manages over HTTP: a name to tell them apart, a scope (`full`, or `read`: GET
 * endpoints and /v1/ping only), and when each was last used (kept to the minute).
 */
export function keyScopes(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();
      await db.schema
        .alterTable('api_keys')
        .addColumn('scope', 'text', (c) => c.notNull().defaultTo('full').check(sql`scope in ('full', 'read')`))
        .execute();
      await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
    },
  };
}
