import { sql } from 'kysely';
import pg from 'pg';
import type { Db, Tx } from './database.js';
import { dialectOf } from './dialect.js';

export type WorkTopic = 'orders' | 'events';
const CHANNEL: Readonly<Record<WorkTopic, string>> = { orders: 'topup_orders', events: 'topup_events' };

/**
 * Tells every worker process that work was written. On PostgreSQL a NOTIFY inside the transaction is
 * delivered when (and only if) it commits; SQLite has one process, where the in-process signal suffices.
 */
export async function notifyWorkers(db: Db | Tx, topic: WorkTopic): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`select pg_notify(${CHANNEL[topic]}, '')`.execute(db);
}

/** What the LISTEN connection is doing, for the log (and whoever watches it). */
export type ListenState = 'listening' | 'reconnecting';

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

/**
 * LISTENs for work on a dedicated connection. After a drop (PostgreSQL restarting, a network cut) it
 * reconnects with back-off (0.5 s doubling to 30 s) for as long as it is open, never giving up: until
 * then workers fall back to polling, and once back they are woken at once. Resolves once listening.
 */
export async function listenForWork(
  url: string,
  onWork: (topic: WorkTopic) => void,
  onError: (error: unknown) => void,
  onState: (state: ListenState) => void = () => {},
) {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = FIRST_RETRY_MS;
  const topics = Object.fromEntries(Object.entries(CHANNEL).map(([topic, channel]) => [channel, topic as WorkTopic]));
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    next.on('notification', (message) => {
      const topic = topics[message.channel];
      if (topic) onWork(topic);
    });
    next.on('error', (error) => {
      onError(error);
      void next.end().catch(() => {});
      if (client === next) reconnect();
    });
    next.on('end', () => {
      if (client === next) reconnect();
    });
    try {
      await next.connect();
      for (const channel of Object.values(CHANNEL)) await next.query(`listen ${channel}`);
    } catch (error) {
      void next.end().catch(() => {});
      throw error;
    }
    client = next;
    delay = FIRST_RETRY_MS;
    onState('listening');
    // Work may have been written while no one listened: wake the workers once.
    onWork('orders');
    onWork('events');
  };
  const reconnect = () => {
    client = undefined;
    if (closed) return;
    onState('reconnecting');
    clearTimeout(retry);
    retry = setTimeout(() => {
      connect().catch((error: unknown) => {
        onError(error);
        delay = Math.min(delay * 2, MAX_RETRY_MS);
        reconnect();
      });
    }, delay);
    retry.unref();
  };
  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
