import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Store } from '../store/database.js';
import type { HostResolver } from './host-resolver.js';
import type { WorkSignal } from './work-signal.js';

/** Wall-clock time as epoch milliseconds; a parameter so tests drive time instead of sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = Object.freeze({ now: () => Date.now() });

/** Everything a use case may touch, passed explicitly and chosen once at start-up. */
export interface Deps {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly log: Logger;
  readonly signal: WorkSignal;
  /** DNS, a parameter so tests can make names resolve to the addresses an attack would use. */
  readonly resolveHost: HostResolver;
}
