import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Dashboard sessions: a browser's sign-in, made from an API key. Only the digest of the session id is
 * kept, so a copy of this table signs no one in; a session ends with its key's revocation (read by a
 * join) or after 12 hours idle.
 */
export function dashboardSessions(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('dashboard_sessions')
        .addColumn('digest', 'text', (c) => c.primaryKey())
        .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .execute();
      // Sweeping reads idle sessions by age, and those of revoked keys by key.
      await db.schema.createIndex('dashboard_sessions_seen').on('dashboard_sessions').column('last_seen_at').execute();
      await db.schema.createIndex('dashboard_sessions_key').on('dashboard_sessions').column('api_key_id').execute();
    },
  };
}
