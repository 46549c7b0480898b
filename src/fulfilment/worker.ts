import { randomBytes } from 'node:crypto';
import type { Deps } from '../app/deps.js';
import type { Order } from '../domain/order.js';
import { BUSY, workLoop } from '../app/work-loop.js';
import { claimOrders, recordVerdict, releaseOrders, whenNextDue, type OperatorVerdict } from '../app/fulfil-orders.js';
import type { OperatorConnector } from './connector.js';

export interface FulfilmentOptions {
  readonly workerId?: string;
  /** Orders claimed at once; all of them are sent to the operator concurrently. */
  readonly batchSize?: number;
  /** How long a claim lasts: far longer than an operator call, so only a dead worker loses one. */
  readonly claimTtlMs?: number;
  /** Longest sleep when idle; a placed order wakes the worker sooner. */
  readonly idlePollMs?: number;
}

export interface FulfilmentWorker {
  readonly workerId: string;
  /** Claims one batch of due orders and settles them; returns how many it claimed. */
  runOnce(): Promise<number>;
  start(): void;
  /** Finishes the orders in hand, then stops. */
  stop(): Promise<void>;
}

async function askOperator(connector: OperatorConnector, order: Order): Promise<OperatorVerdict> {
  try {
    // A second attempt may follow a send whose answer was lost (a crash, a timeout): ask first.
    if (order.attempts > 1) {
      const known = await connector.status(order.id);
      if (known.kind !== 'unknown') return known;
    }
    return await connector.topUp({ rechargeId: order.id, msisdn: order.msisdn, operator: order.operator, amount: order.amount, fast: order.fast });
  } catch (error) {
    return { kind: 'retry', reason: `connector_error: ${(error as Error).message}`.slice(0, 200) };
  }
}

export function createFulfilmentWorker(deps: Deps, connector: OperatorConnector, options: FulfilmentOptions = {}): FulfilmentWorker {
  const workerId = options.workerId ?? `worker_${randomBytes(6).toString('hex')}`;
  const batchSize = options.batchSize ?? 64;
  const claimTtlMs = options.claimTtlMs ?? 120_000;
  const loop = workLoop(deps, {
    name: 'fulfilment',
    topic: 'orders',
    idlePollMs: options.idlePollMs ?? 1_000,
    pass: async () => ((await runOnce()) > 0 ? BUSY : { busy: false, nextDueAt: await whenNextDue(deps) }),
  });

  async function settle(order: Order): Promise<void> {
    const verdict = await askOperator(connector, order);
    try {
      const settled = await recordVerdict(deps, order, workerId, verdict);
      deps.log.debug({ order: order.id, status: settled?.status, verdict: verdict.kind }, 'order settled');
    } catch (error) {
      // The claim stays and expires; the next attempt asks the operator before sending again.
      deps.log.error({ err: error, order: order.id }, 'could not record an operator answer');
    }
  }

  async function runOnce(): Promise<number> {
    const orders = await claimOrders(deps, workerId, batchSize, claimTtlMs);
    if (loop.stopping.aborted) {
      await releaseOrders(deps, workerId, orders.map((o) => o.id));
      return 0;
    }
    await Promise.all(orders.map(settle));
    return orders.length;
  }

  return { workerId, runOnce, start: loop.start, stop: loop.stop };
}
