import { countOpenOrders, nextDueAt } from '../store/order-queue.repository.js';
import { countDeliveries, nextEventDueAt } from '../store/webhooks.repository.js';
import type { Deps } from './deps.js';
import type { QueueStats } from './ports.js';
import { storedFloats } from './upstream-float.js';

/** The work waiting in the store, as an operator's scrape reads it: every query reads a partial index. */
export async function readQueueStats(deps: Deps): Promise<QueueStats> {
  const db = deps.store.db;
  const [openOrders, orderDue, deliveries, deliveryDue, floats] = await Promise.all([
    countOpenOrders(db),
    nextDueAt(db),
    countDeliveries(db),
    nextEventDueAt(db),
    storedFloats(deps),
  ]);
  const now = deps.clock.now();
  // The earliest due time of the open work: in the past, it is how long that work has waited.
  const waited = (due: number | undefined) => (due === undefined ? 0 : Math.max(0, now - due) / 1000);
  const upstreams = floats.map((f) => ({
    connector: f.connector,
    // Major units for the gauge (Prometheus has no money type); the exact figure is in the store.
    available: f.available === null ? null : Number(f.available) / 100,
    currency: f.currency,
    outOfFloat: f.outOfFloatSince !== null,
  }));
  return { openOrders, oldestDueOrderSeconds: waited(orderDue), deliveries, oldestDueDeliverySeconds: waited(deliveryDue), upstreams };
}

/** The metrics text of this process, with the store's gauges read now. */
export async function metricsText(deps: Deps): Promise<{ contentType: string; body: string }> {
  return deps.telemetry.exposition(await readQueueStats(deps));
}
