import type { Logger } from 'pino';
import { systemResolver } from './adapters/dns-resolver.js';
import { httpFeedReader } from './adapters/feed-reader.js';
import { createLogger } from './adapters/logger.js';
import { systemClock } from './adapters/system-clock.js';
import { prometheusTelemetry } from './adapters/telemetry.js';
import type { Deps } from './app/deps.js';
import type { Clock, FeedReader, HostResolver } from './app/ports.js';
import { WorkSignal } from './app/work-signal.js';
import type { Config } from './config.js';
import { webhookEventBody } from './contract/webhooks.js';
import { storedCatalogue } from './app/catalogue.js';
import { openStore } from './store/database.js';

/** What a caller may choose instead of the real thing: tests drive time, DNS and the feed. */
export interface DepsOverrides {
  readonly clock?: Clock;
  readonly log?: Logger;
  readonly resolveHost?: HostResolver;
  readonly readFeed?: FeedReader;
}

/**
 * The composition root: every real dependency is chosen here, once, for the server, the workers, the
 * command line, the benchmark and the tests alike.
 */
export interface Service extends Deps {
  /** The migrations this start applied. */
  readonly migrated: string[];
  /** Closes the store (and with it every connection). */
  close(): Promise<void>;
}

export async function createDeps(config: Config, overrides: DepsOverrides = {}): Promise<Service> {
  const log = overrides.log ?? createLogger(config.logLevel);
  const store = openStore(config.database, {
    poolSize: config.dbPoolSize,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    onConnectionError: (error) => log.warn({ err: error }, 'database connection error (the pool replaces the connection)'),
  });
  try {
    // Every entry point migrates first: it is idempotent, runs under the migrator's lock, and spares
    // a newcomer the "no such table" surprise on the embedded default.
    const migrated = await store.migrate();
    return {
      config,
      store,
      clock: overrides.clock ?? systemClock,
      log,
      signal: new WorkSignal(),
      resolveHost: overrides.resolveHost ?? systemResolver(),
      readFeed: overrides.readFeed ?? httpFeedReader,
      renderEvent: webhookEventBody,
      telemetry: prometheusTelemetry(),
      catalogue: storedCatalogue(store, overrides.clock ?? systemClock),
      migrated,
      close: () => store.close(),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
