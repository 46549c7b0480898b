import type { Order } from '../domain/order.js';
import type { Tx } from '../store/database.js';
import { notifyWorkers } from '../store/notify.js';
import { findEndpointByName, insertEvent } from '../store/webhooks.repository.js';
import { newId } from './ids.js';
import type { EventRenderer } from './ports.js';

/**
 * Writes the order's final-status event into the outbox, inside the transaction that sets the status:
 * if the status commits, so does the event, and a delivery worker will send it however often
 * processes die in between.
 */
export async function enqueueOrderEvent(tx: Tx, render: EventRenderer, order: Order, now: number): Promise<void> {
  if (order.webhookName === null || (order.status !== 'SUCCESS' && order.status !== 'FAILED')) return;
  const endpoint = await findEndpointByName(tx, order.accountId, order.webhookName);
  if (!endpoint) return;
  const type = order.status === 'SUCCESS' ? 'recharge.succeeded' : 'recharge.failed';
  await insertEvent(tx, {
    id: newId('msg'),
    accountId: order.accountId,
    endpointId: endpoint.id,
    orderId: order.id,
    type,
    payload: render(type, now, order),
    createdAt: now,
  });
  await notifyWorkers(tx, 'events');
}
