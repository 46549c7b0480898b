import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { createDeps } from '../../main.js';
import { startMetricsServer } from '../../server.js';
import { startWorkers } from '../../workers.js';
import { collectGarbageSooner } from '../heap.js';
import { listenOrExplain, portNumber } from '../listen.js';
import { onShutdown } from '../shutdown.js';

export function workerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the background workers alone (fulfilment, webhook delivery, rate refresh)')
    .option('--metrics-port <port>', 'serve /metrics, /healthz and /readyz on this port (default: none)', portNumber)
    .option('--host <host>', 'bind address of --metrics-port (default HOST or 127.0.0.1)')
    .action(async (opts: { metricsPort?: number; host?: string }) => {
      collectGarbageSooner();
      const config = loadConfig();
      const deps = await createDeps(config);
      const listen = { port: opts.metricsPort ?? 0, host: opts.host ?? config.host };
      const metrics =
        opts.metricsPort === undefined ? undefined : await listenOrExplain(listen, () => startMetricsServer(deps, listen), () => deps.close());
      const workers = await startWorkers(deps);
      if (metrics) deps.log.info({ url: `${metrics.url}/metrics` }, 'serving metrics');
      onShutdown(
        deps.log,
        async () => {
          await Promise.all([workers.stop(), metrics?.close(config.shutdownTimeoutMs / 2)]);
          await deps.close();
        },
        config.shutdownTimeoutMs,
      );
    });
}
