import type { Order } from '../domain/order.js';
import type { OrderEventType } from '../domain/webhook-event.js';

// What the use cases need from the world outside, as small interfaces. The real implementations do
// I/O and live in adapters/ (or a transport); the composition root (main.ts) chooses them once, and
// tests pass their own.

/** Wall-clock time as epoch milliseconds; a parameter so tests drive time instead of sleeping. */
export interface Clock {
  now(): number;
}

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has; an IP literal resolves to itself. */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

/** Reads a document over the network (the National Bank of Romania rates feed); rejects on failure. */
export type FeedReader = (url: string) => Promise<string>;

/** The webhook body of an order's final status (its format is the contract's, not the use case's). */
export type EventRenderer = (type: OrderEventType, at: number, order: Order) => string;

/** The store-backed gauges a scrape reads at that moment (the work waiting, not the work done). */
export interface QueueStats {
  /** Open orders by status: the backlog, and the orders with an operator now. */
  readonly openOrders: { readonly PENDING: number; readonly PROCESSING: number };
  /** How long the oldest due order has waited for a worker, in seconds (0 when none is due). */
  readonly oldestDueOrderSeconds: number;
  readonly deliveries: { readonly pending: number; readonly failed: number };
  /** How long the oldest due webhook delivery has waited, in seconds (0 when none is due). */
  readonly oldestDueDeliverySeconds: number;
  /** Our credit with each upstream that keeps a float, as last read, and whether it refuses orders for want of it. */
  readonly upstreams: ReadonlyArray<{ readonly connector: string; readonly available: number | null; readonly currency: string | null; readonly outOfFloat: boolean }>;
}

export type OperatorOutcome = 'success' | 'failed' | 'retry' | 'pending' | 'unknown' | 'not_found';

/**
 * What the service counts about itself for an operator's dashboards and alerts. Counters and
 * histograms are kept per process; the gauges of the queues come from the store at scrape time, so
 * every process reports the same backlog.
 */
export interface Telemetry {
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  operatorCall(connector: string, outcome: OperatorOutcome, seconds: number): void;
  orderSettled(status: 'SUCCESS' | 'FAILED'): void;
  deliveryAttempt(outcome: string): void;
  /** Claims of a dead worker (their lease ran out) that this process took over. */
  claimsTakenOver(queue: 'orders' | 'webhooks', count: number): void;
  /** Whether cross-process wake-ups arrive (PostgreSQL LISTEN), or workers only poll meanwhile. */
  listenState(state: 'listening' | 'reconnecting'): void;
  /** The Prometheus text of a scrape. */
  exposition(queue: QueueStats): Promise<{ readonly contentType: string; readonly body: string }>;
}
