import type { Logger } from 'pino';
import { systemClock, type Clock, type Deps } from './app/deps.js';
import type { Config } from './config.js';
import { systemResolver } from './app/host-resolver.js';
import { WorkSignal } from './app/work-signal.js';
import { createLogger } from './logger.js';
import { migrate, openStore } from './store/database.js';

/** The composition root: every real dependency is chosen here, once. */
export async function createDeps(
  config: Config,
  overrides: { clock?: Clock; log?: Logger } = {},
): Promise<Deps & { migrated: string[] }> {
  const log = overrides.log ?? createLogger(config.logLevel);
  const store = openStore(config.database, { poolSize: config.dbPoolSize, statementTimeoutMs: config.dbStatementTimeoutMs });
  try {
    // Every entry point migrates first: it is idempotent, runs under the migrator's lock, and spares
    // a newcomer the "no such table" surprise on the embedded default.
    const migrated = await migrate(store);
    return { config, store, clock: overrides.clock ?? systemClock, log, signal: new WorkSignal(), resolveHost: systemResolver, migrated };
  } catch (error) {
    await store.close();
    throw error;
  }
}
