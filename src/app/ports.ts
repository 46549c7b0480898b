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
