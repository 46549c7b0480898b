export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type OrderEventType = 'recharge.succeeded' | 'recharge.failed';
/** Every event type: an order's final status, or a test the customer asked for. */
export type WebhookEventType = OrderEventType | 'webhook.test';

/** One event for one endpoint (the outbox row), and the state of its delivery. */
export interface WebhookEvent {
  /** The webhook-id header: stable across retries, so receivers can de-duplicate. */
  readonly id: string;
  readonly accountId: string;
  readonly endpointId: string;
  readonly orderId: string;
  readonly type: WebhookEventType;
  /** The exact body sent on every attempt. */
  readonly payload: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly claimedBy: string | null;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly createdAt: number;
  readonly deliveredAt: number | null;
}

/** One delivery attempt, as recorded. */
export interface DeliveryAttempt {
  readonly attemptedAt: number;
  readonly statusCode: number | null;
  readonly latencyMs: number;
  readonly error: string | null;
  readonly outcome: string;
}
