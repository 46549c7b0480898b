import type { Tx } from '../store/database.js';
import type { Dialect } from '../store/dialect.js';
import { notifyWorkers } from '../store/notify.js';
import type { OrderRecord } from '../store/orders.repository.js';
import { findEndpointByName, insertEvent } from '../store/webhooks.repository.js';
import { newId } from './ids.js';
import { orderRecordView } from './order-views.js';

/**
 * Writes the order's final-status event into the outbox, inside the transaction that sets the status:
 * if the status commits, so does the event, and a delivery worker will send it however often
 * processes die in between.
 */
export async function enqueueOrderEvent(tx: Tx, dialect: Dialect, order: OrderRecord, now: number): Promise<void> {
  if (order.webhookName === null || (order.status !== 'SUCCESS' && order.status !== 'FAILED')) return;
  const endpoint = await findEndpointByName(tx, order.accountId, order.webhookName);
  if (!endpoint) return;
  const type = order.status === 'SUCCESS' ? 'recharge.succeeded' : 'recharge.failed';
  const payload = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data: orderRecordView(order) });
  await insertEvent(tx, {
    id: newId('msg'),
    accountId: order.accountId,
    endpointId: endpoint.id,
    orderId: order.id,
    type,
    payload,
    createdAt: now,
  });
  await notifyWorkers(tx, dialect, 'events');
}
