import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Store } from '../store/database.js';
import type { Clock, EventRenderer, FeedReader, HostResolver, Telemetry } from './ports.js';
import type { WorkSignal } from './work-signal.js';
import type { ProductCatalogue } from './catalogue.js';

/**
 * Everything a use case may touch, passed explicitly and chosen once at start-up by `createDeps`
 * (main.ts), in production and in tests alike.
 */
export interface Deps {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly log: Logger;
  readonly signal: WorkSignal;
  /** DNS, a parameter so tests can make names resolve to the addresses an attack would use. */
  readonly resolveHost: HostResolver;
  readonly readFeed: FeedReader;
  readonly renderEvent: EventRenderer;
  readonly telemetry: Telemetry;
  /** The catalogue upstreams' products, in memory. */
  readonly catalogue: ProductCatalogue;
}
