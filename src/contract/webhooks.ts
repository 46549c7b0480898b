import { Type, type Static } from '@sinclair/typebox';
import type { Order } from '../domain/order.js';
import type { WebhookEndpoint } from '../domain/webhook-endpoint.js';
import { DELIVERY_STATUSES, type DeliveryAttempt, type OrderEventType, type WebhookEvent } from '../domain/webhook-event.js';
import { envelopeOf, isoTime, isoTimeOrNull, PageQuerySchema, Timestamp } from './common.js';
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
  // A test event concerns no order.
  order_id: e.orderId === '' ? null : e.orderId,
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

const NameSchema = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$', description: '1 to 64 letters, digits, dots, dashes or underscores' });

export const WebhookRecordSchema = Type.Object({
  name: Type.String(),
  url: Type.String(),
  enabled: Type.Boolean(),
  disabled_reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});
export const WebhookListSchema = Type.Object({ data: Type.Array(WebhookRecordSchema) });

export const CreateWebhookSchema = Type.Object({ name: NameSchema, url: Type.String({ minLength: 1, maxLength: 2048 }) }, { additionalProperties: false });
export type CreateWebhook = Static<typeof CreateWebhookSchema>;
export const WebhookCreatedSchema = Type.Object({ name: Type.String(), url: Type.String(), secret: Type.String({ description: 'whsec_…, shown this once' }) });
export const WebhookNameParamsSchema = Type.Object({ name: Type.String({ maxLength: 64 }) });
export const WebhookEnabledSchema = Type.Object({ name: Type.String(), enabled: Type.Literal(true) });
export const WebhookRotatedSchema = Type.Object({ name: Type.String(), secret: Type.String({ description: 'the new whsec_…, shown this once' }) });
export const WebhookTestSchema = Type.Object({ id: Type.String({ description: 'the delivery id (msg_…)' }) });

export const DeliveryQuerySchema = Type.Composite(
  [
    PageQuerySchema,
    Type.Object({
      status: Type.Optional(Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s)))),
      order_id: Type.Optional(Type.String({ format: 'uuid', description: "only this order's deliveries" })),
    }),
  ],
  { additionalProperties: false },
);
export type DeliveryQuery = Static<typeof DeliveryQuerySchema>;

export const DeliverySchema = Type.Object({
  id: Type.String(),
  type: Type.String(),
  order_id: Type.Union([Type.String(), Type.Null()], { description: 'null for a webhook.test event' }),
  endpoint_id: Type.String(),
  status: Type.String(),
  attempts: Type.Array(
    Type.Object({
      at: Timestamp,
      status_code: Type.Union([Type.Integer(), Type.Null()]),
      latency_ms: Type.Integer(),
      error: Type.Union([Type.String(), Type.Null()]),
      outcome: Type.String(),
    }),
  ),
  next_attempt_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
  delivered_at: Type.Union([Timestamp, Type.Null()]),
});
export const DeliveryPageSchema = envelopeOf(DeliverySchema);
export const DeliveryIdParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const RedeliveredSchema = Type.Object({ id: Type.String(), status: Type.Literal('pending') });

/** An endpoint as the API lists it (its id and secret are not the customer's business). */
export const presentWebhookRecord = (e: WebhookEndpoint) => ({
  name: e.name,
  url: e.url,
  enabled: e.disabledAt === null,
  disabled_reason: e.disabledReason,
  created_at: isoTime(e.createdAt),
});
