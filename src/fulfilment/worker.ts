import { randomBytes } from 'node:crypto';
import type { Deps } from '../app/deps.js';
import { fulfilOrder } from '../app/fulfil-order.js';
import { claimOrders, releaseOrders, renewOrderClaims, whenNextDue } from '../app/fulfil-orders.js';
import type { UpstreamConnector } from '../app/upstream.js';
import { BUSY, workLoop } from '../app/work-loop.js';
import type { Order } from '../domain/order.js';

export interface FulfilmentOptions {
  readonly workerId?: string;
  /** Orders in hand at once; all of them are with the operator concurrently. */
  readonly batchSize?: number;
  /**
   * How long a claim lasts without renewal. A live worker renews its claims every third of it while
   * the operator calls run, so only a dead worker's orders are taken over, and soon.
   */
  readonly claimTtlMs?: number;
  /** Longest an operator call may take before its outcome counts as unknown (asked about next time). */
  readonly operatorTimeoutMs?: number;
  /** Longest sleep when idle; a placed order wakes the worker sooner. */
  readonly idlePollMs?: number;
}

export interface FulfilmentWorker {
  readonly workerId: string;
  /** Claims one batch of due orders and settles them all; returns how many it claimed. */
  runOnce(): Promise<number>;
  start(): void;
  /** Finishes the orders in hand, then stops. */
  stop(): Promise<void>;
}

export function createFulfilmentWorker(deps: Deps, upstreams: readonly UpstreamConnector[], options: FulfilmentOptions = {}): FulfilmentWorker {
  const workerId = options.workerId ?? `worker_${randomBytes(6).toString('hex')}`;
  const batchSize = options.batchSize ?? 64;
  const claimTtlMs = options.claimTtlMs ?? 15_000;
  const operatorTimeoutMs = options.operatorTimeoutMs ?? 30_000;
  /** Orders with the operator now, by id: renewed by the heartbeat, settled one by one as answers come. */
  const inHand = new Map<string, Promise<void>>();

  const route = { upstreams, timeoutMs: operatorTimeoutMs };

  async function settle(order: Order): Promise<void> {
    try {
      const outcome = await fulfilOrder(deps, order, workerId, route);
      deps.log.debug({ order: order.id, status: outcome.kind === 'order' ? outcome.order.status : outcome.kind }, 'order handled');
    } catch (error) {
      // The claim stays and expires; whoever takes the order next looks its open attempt up first.
      deps.log.error({ err: error, order: order.id }, 'could not handle an order');
    }
  }

  // The heartbeat runs while orders are in hand: every third of a lease it renews their claims.
  let heartbeat: NodeJS.Timeout | undefined;
  const renew = () =>
    void renewOrderClaims(deps, workerId, [...inHand.keys()], claimTtlMs).catch((error: unknown) =>
      deps.log.warn({ err: error }, 'could not renew order claims'),
    );

  function launch(orders: readonly Order[]): Promise<void>[] {
    if (orders.length > 0 && heartbeat === undefined) {
      heartbeat = setInterval(renew, Math.max(100, Math.floor(claimTtlMs / 3)));
      heartbeat.unref();
    }
    return orders.map((order) => {
      const settling = settle(order).finally(() => {
        inHand.delete(order.id);
        if (inHand.size === 0) {
          clearInterval(heartbeat);
          heartbeat = undefined;
        }
      });
      inHand.set(order.id, settling);
      return settling;
    });
  }

  // Keeps up to `batchSize` orders with the operator, claiming more as answers come in: an order is
  // recorded as soon as its own answer arrives, and a fast order never waits for a slow batch.
  const loop = workLoop(deps, {
    name: 'fulfilment',
    topic: 'orders',
    idlePollMs: options.idlePollMs ?? 1_000,
    pass: async () => {
      const free = batchSize - inHand.size;
      const orders = free > 0 ? await claimOrders(deps, workerId, free, claimTtlMs) : [];
      if (loop.stopping.aborted) {
        await releaseOrders(deps, workerId, orders.map((o) => o.id));
        return { busy: false, nextDueAt: undefined };
      }
      launch(orders);
      if (orders.length > 0 && inHand.size < batchSize) return BUSY;
      if (inHand.size >= batchSize) {
        await Promise.race(inHand.values());
        return BUSY;
      }
      return { busy: false, nextDueAt: await whenNextDue(deps) };
    },
    drain: () => Promise.all(inHand.values()),
  });

  async function runOnce(): Promise<number> {
    const orders = await claimOrders(deps, workerId, batchSize, claimTtlMs);
    await Promise.all(launch(orders));
    return orders.length;
  }

  return { workerId, runOnce, start: loop.start, stop: loop.stop };
}
