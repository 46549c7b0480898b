import { randomBytes } from 'node:crypto';
import { attemptDelivery, claimEvents, whenNextEventDue, type DeliveryTools } from '../app/deliver-webhooks.js';
import type { Deps } from '../app/deps.js';
import { BUSY, workLoop } from '../app/work-loop.js';
import type { WebhookEvent } from '../domain/webhook-event.js';
import { sendWebhook } from './http-sender.js';
import { signedHeaders } from './signing.js';

export interface DeliveryOptions {
  readonly workerId?: string;
  /** Deliveries in flight at once; a slow receiver holds one slot, not the queue. */
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly claimTtlMs?: number;
  readonly idlePollMs?: number;
  readonly tools?: Partial<DeliveryTools>;
}

export interface DeliveryWorker {
  readonly workerId: string;
  /** Claims the due deliveries (up to the concurrency) and attempts them all; returns how many. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createDeliveryWorker(deps: Deps, options: DeliveryOptions = {}): DeliveryWorker {
  const workerId = options.workerId ?? `webhooks_${randomBytes(6).toString('hex')}`;
  const concurrency = options.concurrency ?? 64;
  const timeoutMs = options.timeoutMs ?? 10_000;
  // The claim outlives the timeout by far: only a dead worker lets one expire.
  const claimTtlMs = options.claimTtlMs ?? timeoutMs * 6;
  const tools: DeliveryTools = {
    send: options.tools?.send ?? sendWebhook,
    sign: options.tools?.sign ?? signedHeaders,
    timeoutMs,
    jitter: options.tools?.jitter ?? (() => Math.random() * 2 - 1),
  };
  const inFlight = new Set<Promise<void>>();

  const attempt = (event: WebhookEvent) =>
    attemptDelivery(deps, event, workerId, tools).then(
      () => undefined,
      (error: unknown) => deps.log.error({ err: error, event: event.id }, 'could not record a webhook attempt'),
    );

  function launch(events: WebhookEvent[]): Promise<void>[] {
    return events.map((event) => {
      const running = attempt(event).finally(() => inFlight.delete(running));
      inFlight.add(running);
      return running;
    });
  }

  async function runOnce(): Promise<number> {
    const events = await claimEvents(deps, workerId, concurrency, claimTtlMs);
    await Promise.all(launch(events));
    return events.length;
  }

  // Keeps up to `concurrency` deliveries in flight, claiming more as slots free up.
  const loop = workLoop(deps, {
    name: 'webhook delivery',
    topic: 'events',
    idlePollMs: options.idlePollMs ?? 1_000,
    pass: async () => {
      const free = concurrency - inFlight.size;
      const events = free > 0 ? await claimEvents(deps, workerId, free, claimTtlMs) : [];
      launch(events);
      if (events.length > 0 && inFlight.size < concurrency) return BUSY;
      if (inFlight.size >= concurrency) {
        await Promise.race(inFlight);
        return BUSY;
      }
      return { busy: false, nextDueAt: await whenNextEventDue(deps) };
    },
    drain: () => Promise.all(inFlight),
  });

  return { workerId, runOnce, start: loop.start, stop: loop.stop };
}
