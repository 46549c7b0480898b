import type { Deps } from './app/deps.js';
import { pruneExpired } from './app/maintenance.js';
import { fetchRate } from './app/rates.js';
import { refreshBalances } from './app/upstream-float.js';
import { presentRate } from './contract/rates.js';
import { createUpstreams } from './fulfilment/connectors.js';
import { createFulfilmentWorker } from './fulfilment/worker.js';
import { createDeliveryWorker } from './webhooks/delivery-worker.js';

export interface RunningWorkers {
  stop(): Promise<void>;
}

const RATE_REFRESH_MS = 3_600_000;
const PRUNE_EVERY_MS = 600_000;
const BALANCES_EVERY_MS = 300_000;

function every(ms: number, task: () => Promise<unknown>, log: Deps['log'], what: string): NodeJS.Timeout {
  const run = () => void task().catch((error: unknown) => log.warn({ err: error }, `${what} failed`));
  const timer = setInterval(run, ms);
  timer.unref();
  return timer;
}

/**
 * The background work of one process: fulfilment, webhook delivery, pruning of expired keys, and in
 * production (with no fixed rate) an hourly refresh of the EUR/RON rate from the National Bank of
 * Romania feed. Workers also listen to the store, so that orders and events written by any API process
 * wake them at once (PostgreSQL NOTIFY; on SQLite the in-process signal does).
 */
export async function startWorkers(deps: Deps): Promise<RunningWorkers> {
  const claimTtlMs = deps.config.workerClaimTtlMs;
  const upstreams = createUpstreams(deps);
  const fulfilment = createFulfilmentWorker(deps, upstreams, { claimTtlMs, operatorTimeoutMs: deps.config.operatorTimeoutMs });
  const timeoutMs = deps.config.webhookTimeoutMs;
  // A delivery claim must outlive the delivery's own timeout by far, or a slow one would be sent twice.
  const deliveries = createDeliveryWorker(deps, { timeoutMs, claimTtlMs: Math.max(claimTtlMs, timeoutMs * 3) });
  const timers: NodeJS.Timeout[] = [every(PRUNE_EVERY_MS, () => pruneExpired(deps), deps.log, 'pruning')];
  if (upstreams.some((u) => u.balance)) {
    // Our credit with each upstream, for /metrics and `topup upstream balance`: at start, then every 5 minutes.
    void refreshBalances(deps, upstreams).catch((error: unknown) => deps.log.warn({ err: error }, 'upstream balance refresh failed'));
    timers.push(every(BALANCES_EVERY_MS, () => refreshBalances(deps, upstreams), deps.log, 'upstream balance refresh'));
  }
  if (deps.config.environment === 'production' && deps.config.fixedEurRonRate === undefined) {
    const refresh = async () => deps.log.info({ rate: presentRate(await fetchRate(deps)) }, 'exchange rate refreshed');
    void refresh().catch((error: unknown) => deps.log.warn({ err: error }, 'exchange rate refresh failed'));
    timers.push(every(RATE_REFRESH_MS, refresh, deps.log, 'exchange rate refresh'));
  }
  let listenState = 'listening';
  deps.telemetry.listenState('listening');
  const listener = await deps.store.listenForWork(
    (topic) => deps.signal.notify(topic),
    (error) => deps.log.warn({ err: error }, 'LISTEN connection failed'),
    (state) => {
      if (state === listenState) return;
      listenState = state;
      deps.telemetry.listenState(state);
      if (state === 'reconnecting') deps.log.warn('LISTEN connection lost: reconnecting with back-off; workers poll meanwhile');
      else deps.log.info('LISTEN connection back: workers are woken by other processes again');
    },
  );
  fulfilment.start();
  deliveries.start();
  deps.log.info({ fulfilment: fulfilment.workerId, webhooks: deliveries.workerId }, 'workers started');
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await listener.close();
      await Promise.all([fulfilment.stop(), deliveries.stop()]);
    },
  };
}
