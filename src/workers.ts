import type { Deps } from './app/deps.js';
import { fetchRate } from './app/rates.js';
import { createConnector } from './fulfilment/connectors.js';
import { createFulfilmentWorker } from './fulfilment/worker.js';
import { createDeliveryWorker } from './webhooks/delivery-worker.js';

export interface RunningWorkers {
  stop(): Promise<void>;
}

const RATE_REFRESH_MS = 3_600_000;

/**
 * The background work of one process: fulfilment, webhook delivery, and in production (with no fixed
 * rate) an hourly refresh of the EUR/RON rate from the National Bank of Romania feed.
 */
export function startWorkers(deps: Deps): RunningWorkers {
  const fulfilment = createFulfilmentWorker(deps, createConnector(deps));
  const deliveries = createDeliveryWorker(deps);
  fulfilment.start();
  deliveries.start();
  let rateTimer: NodeJS.Timeout | undefined;
  if (deps.config.environment === 'production' && deps.config.fixedEurRonRate === undefined) {
    const refresh = () =>
      fetchRate(deps).then(
        (rate) => deps.log.info({ rate }, 'exchange rate refreshed'),
        (error: unknown) => deps.log.warn({ err: error }, 'exchange rate refresh failed'),
      );
    void refresh();
    rateTimer = setInterval(refresh, RATE_REFRESH_MS);
    rateTimer.unref();
  }
  deps.log.info({ fulfilment: fulfilment.workerId, webhooks: deliveries.workerId }, 'workers started');
  return {
    async stop() {
      clearInterval(rateTimer);
      await Promise.all([fulfilment.stop(), deliveries.stop()]);
    },
  };
}
