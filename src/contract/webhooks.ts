import type { Order } from '../domain/order.js';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.js';
import type { DeliveryAttempt, OrderEventType, WebhookEvent } from '../domain/webhook-event.js';
import { isoTime, isoTimeOrNull } from './common.js';
import { presentOrderRecord } from './orders.js';

/** The body of an order's webhook event, exactly as it is signed and sent on every attempt. */
export function webhookEventBody(type: OrderEventType, at: number, order: Order): string {
  return JSON.stringify({ type, timestamp: isoTime(at), data: presentOrderRecord(order) });
}

export const presentWebhookEndpoint = (e: WebhookEndpoint) => ({
  id: e.id,
  name: e.name,
  url: e.url,
  enabled: e.disabledAt === null,
  disabled_reason: e.disabledReason,
  created_at: isoTime(e.createdAt),
});

/** A delivery with every attempt, as `topup webhooks deliveries` lists it. */
export const presentDelivery = (e: WebhookEvent, attempts: readonly DeliveryAttempt[]) => ({
  id: e.id,
  type: e.type,
  order_id: e.orderId,
  endpoint_id: e.endpointId,
  status: e.status,
  attempts: attempts.map((a) => ({
    at: isoTime(a.attemptedAt),
    status_code: a.statusCode,
    latency_ms: a.latencyMs,
    error: a.error,
    outcome: a.outcome,
  })),
  next_attempt_at: e.status === 'pending' ? isoTime(e.nextAttemptAt) : null,
  created_at: isoTime(e.createdAt),
  delivered_at: isoTimeOrNull(e.deliveredAt),
});
