import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { createDeps } from '../../main.js';
import { startWorkers } from '../../workers.js';
import { collectGarbageSooner } from '../heap.js';
import { onShutdown } from '../shutdown.js';

export function workerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the background workers alone (fulfilment, rate refresh)')
    .action(async () => {
      collectGarbageSooner();
      const config = loadConfig();
      const deps = await createDeps(config);
      const workers = await startWorkers(deps);
      onShutdown(
        deps.log,
        async () => {
          await workers.stop();
          await deps.close();
        },
        config.shutdownTimeoutMs,
      );
    });
}
