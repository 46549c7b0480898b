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

/** LISTENs for work on a dedicated connection, reconnecting after a drop; resolves once listening. */
export async function listenForWork(url: string, onWork: (topic: WorkTopic) => void, onError: (error: unknown) => void) {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
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
      if (!closed) retry = setTimeout(() => void connect().catch(onError), 1_000);
    });
    await next.connect();
    for (const channel of Object.values(CHANNEL)) await next.query(`listen ${channel}`);
    client = next;
    // Work may have been written while no one listened: wake the workers once.
    onWork('orders');
    onWork('events');
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
