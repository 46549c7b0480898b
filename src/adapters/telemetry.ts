import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { OperatorOutcome, QueueStats, Telemetry } from '../app/ports.js';

/**
 * Prometheus metrics, one registry per service instance (so several instances in one process, as in
 * the tests, do not collide). Names follow Prometheus conventions: `_total` counters, `_seconds` units.
 */
export function prometheusTelemetry(): Telemetry {
  const registers = [new Registry()];
  const [registry] = registers as [Registry];
  collectDefaultMetrics({ register: registry });

  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const operatorCalls = new Histogram({
    name: 'topup_operator_call_duration_seconds',
    help: 'Operator (upstream) calls by connector and outcome: success, failed, retry (refused for now), unknown (no answer)',
    labelNames: ['connector', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });
  const settled = new Counter({
    name: 'topup_orders_settled_total',
    help: 'Orders this process settled, by final status',
    labelNames: ['status'] as const,
    registers,
  });
  const deliveryAttempts = new Counter({
    name: 'topup_webhook_attempts_total',
    help: 'Webhook delivery attempts this process made, by outcome: delivered, retry, fail, disable',
    labelNames: ['outcome'] as const,
    registers,
  });
  const takenOver = new Counter({
    name: 'topup_claims_taken_over_total',
    help: "Claims whose lease ran out (their worker died or stalled) that this process took over",
    labelNames: ['queue'] as const,
    registers,
  });
  // Only a process that runs workers listens: an API-only process has no such gauge rather than a 0.
  let listening: Gauge | undefined;
  // Known label values start at zero, so a rate() over them exists before the first event.
  for (const status of ['SUCCESS', 'FAILED']) settled.inc({ status }, 0);
  for (const outcome of ['delivered', 'retry', 'fail', 'disable']) deliveryAttempts.inc({ outcome }, 0);
  for (const queue of ['orders', 'webhooks']) takenOver.inc({ queue }, 0);

  const openOrders = new Gauge({ name: 'topup_orders_open', help: 'Open orders by status (all processes)', labelNames: ['status'] as const, registers });
  const oldestOrder = new Gauge({
    name: 'topup_orders_oldest_due_seconds',
    help: 'How long the oldest due order has waited for a worker (0 when none is due)',
    registers,
  });
  const deliveries = new Gauge({
    name: 'topup_webhook_deliveries',
    help: 'Webhook deliveries pending (still to be sent or retried) and failed (given up), all processes',
    labelNames: ['status'] as const,
    registers,
  });
  const oldestDelivery = new Gauge({
    name: 'topup_webhook_oldest_due_seconds',
    help: 'How long the oldest due webhook delivery has waited for a worker (0 when none is due)',
    registers,
  });

  const upstreamBalance = new Gauge({
    name: 'topup_upstream_balance',
    help: 'Our credit with each upstream that keeps a float, in major units of its currency, as last read (every 5 minutes by the workers)',
    labelNames: ['connector', 'currency'] as const,
    registers,
  });
  const outOfFloat = new Gauge({
    name: 'topup_upstream_out_of_float',
    help: '1 while an upstream refuses orders for want of our credit there (its orders wait), else 0',
    labelNames: ['connector'] as const,
    registers,
  });

  return {
    httpRequest: (method, route, status, seconds) => http.observe({ method, route, status: String(status) }, seconds),
    operatorCall: (connector: string, outcome: OperatorOutcome, seconds: number) => operatorCalls.observe({ connector, outcome }, seconds),
    orderSettled: (status) => settled.inc({ status }),
    deliveryAttempt: (outcome) => deliveryAttempts.inc({ outcome }),
    claimsTakenOver: (queue, count) => {
      if (count > 0) takenOver.inc({ queue }, count);
    },
    listenState: (state) => {
      listening ??= new Gauge({
        name: 'topup_listen_connected',
        help: '1 while cross-process wake-ups arrive (PostgreSQL LISTEN; in-process on SQLite), 0 while reconnecting (workers poll)',
        registers,
      });
      listening.set(state === 'listening' ? 1 : 0);
    },
    async exposition(queue: QueueStats) {
      for (const status of ['PENDING', 'PROCESSING'] as const) openOrders.set({ status }, queue.openOrders[status]);
      oldestOrder.set(queue.oldestDueOrderSeconds);
      deliveries.set({ status: 'pending' }, queue.deliveries.pending);
      deliveries.set({ status: 'failed' }, queue.deliveries.failed);
      oldestDelivery.set(queue.oldestDueDeliverySeconds);
      upstreamBalance.reset();
      for (const u of queue.upstreams) {
        if (u.available !== null && u.currency !== null) upstreamBalance.set({ connector: u.connector, currency: u.currency }, u.available);
        outOfFloat.set({ connector: u.connector }, u.outOfFloat ? 1 : 0);
      }
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
