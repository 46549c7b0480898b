import { Redis } from 'ioredis';
import type { Deps } from '../app/deps.js';
import { countRequest } from '../app/rate-limit.js';

/**
 * Stores for @fastify/rate-limit that count per API key across all routes (the plugin's own stores
 * count per route): the service's store (memory on SQLite, which serves one process; a table every
 * process shares on PostgreSQL), or Redis when REDIS_URL is set.
 */
type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface CountingStore {
  /** The plugin passes the window as a third argument (its typings omit it). */
  incr(key: string, callback: Callback, timeWindow?: number): void;
  child(): CountingStore;
}

const MINUTE = 60_000;

export type StoreClass = new () => CountingStore;

/** The plugin instantiates its store per scope; every instance is the one shared counter. */
const sharedStore = (store: CountingStore): StoreClass =>
  class {
    constructor() {
      return store;
    }
  } as unknown as StoreClass;

const settle = (callback: Callback, counting: Promise<{ count: number; ttlMs: number }>) =>
  counting.then(
    ({ count, ttlMs }) => callback(null, { current: count, ttl: Math.max(0, ttlMs) }),
    (error: Error) => callback(error),
  );

/** Counts in the service's own store: memory on SQLite (one process), a shared table on PostgreSQL. */
export function serviceStore(deps: Deps): StoreClass {
  const store: CountingStore = {
    incr: (key, callback, timeWindow = MINUTE) => void settle(callback, countRequest(deps, key, timeWindow)),
    child: () => store,
  };
  return sharedStore(store);
}

const INCR_WITH_WINDOW = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

export function redisStore(redis: Redis, namespace = 'topup:rate:'): StoreClass {
  redis.defineCommand('topupCount', { numberOfKeys: 1, lua: INCR_WITH_WINDOW });
  const counter = redis as Redis & { topupCount(key: string, windowMs: number): Promise<[number, number]> };
  const store: CountingStore = {
    incr: (key, callback, timeWindow = MINUTE) =>
      void settle(
        callback,
        counter.topupCount(`${namespace}${key}`, timeWindow).then(([count, ttlMs]) => ({ count, ttlMs })),
      ),
    child: () => store,
  };
  return sharedStore(store);
}

export function connectRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: false, lazyConnect: false });
}
