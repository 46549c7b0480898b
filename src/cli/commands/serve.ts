import type { Command } from 'commander';
import { ensureDemoAccount } from '../../app/demo.js';
import { toJsonNumber } from '../../domain/money.js';
import { loadConfig } from '../../config.js';
import { createDeps } from '../../main.js';
import { startServer } from '../../server.js';
import { startWorkers } from '../../workers.js';
import { collectGarbageSooner } from '../heap.js';
import { curlExample } from '../output.js';
import { listenOrExplain, portNumber } from '../listen.js';
import { onShutdown } from '../shutdown.js';

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('run the HTTP API (and the background workers unless --no-worker)')
    .option('--port <port>', 'port (default PORT or 8080)', portNumber)
    .option('--host <host>', 'bind address (default HOST or 127.0.0.1)')
    .option('--no-worker', 'run the API alone')
    .option('--demo', 'on first start in staging, create a demo account and print its key')
    .action(async (opts: { port?: number; host?: string; worker: boolean; demo?: boolean }) => {
      collectGarbageSooner();
      const config = loadConfig();
      const deps = await createDeps(config);
      const listen = { port: opts.port ?? config.port, host: opts.host ?? config.host };
      let demo: Awaited<ReturnType<typeof ensureDemoAccount>> | undefined;
      if (opts.demo && config.environment === 'staging') demo = await ensureDemoAccount(deps);
      // Listen first: a process that cannot serve must not stay behind as a headless worker.
      const server = await listenOrExplain(listen, () => startServer(deps, listen), () => deps.close());
      const workers = opts.worker ? await startWorkers(deps) : undefined;
      deps.log.info({ url: server.url, environment: config.environment, database: config.database.kind }, 'listening');
      if (demo && 'created' in demo) {
        process.stdout.write(
          `\nDemo account ${demo.created.accountId} with ${toJsonNumber(demo.created.balance)} ${demo.created.currency} of test credit.\n` +
            `API key (shown once): ${demo.created.key}\nTry:\n  ${curlExample(server.url, demo.created.key)}\n\n`,
        );
      } else if (demo && 'existing' in demo) {
        process.stdout.write(
          `\nDemo account ${demo.existing} exists. New key: npx topup keys create --account ${demo.existing}\nServing on ${server.url}\n\n`,
        );
      }
      const timeoutMs = config.shutdownTimeoutMs;
      onShutdown(
        deps.log,
        async () => {
          // Both at once: the listener stops accepting while the workers finish the calls in hand.
          await Promise.all([server.close(timeoutMs / 2), workers?.stop()]);
          await deps.close();
        },
        timeoutMs,
      );
    });
}
