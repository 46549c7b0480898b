import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { AppError } from '../domain/errors.js';
import { CommandError } from './command-error.js';
import { accountsCommand } from './commands/accounts.js';
import { auditCommand } from './commands/audit.js';
import { demoCommand } from './commands/demo.js';
import { depositsCommand } from './commands/deposits.js';
import { keysCommand } from './commands/keys.js';
import { migrateCommand } from './commands/migrate.js';
import { ordersCommand } from './commands/orders.js';
import { upstreamCommand } from './commands/upstream.js';
import { reconcileCommand } from './commands/reconcile.js';
import { portabilityCommand } from './commands/portability.js';
import { ratesCommand } from './commands/rates.js';
import { serveCommand } from './commands/serve.js';
import { webhooksCommand } from './commands/webhooks.js';
import { workerCommand } from './commands/worker.js';

/** The package's version (dist/cli/ and src/cli/ both sit two folders below package.json). */
const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

export function buildProgram(): Command {
  const program = new Command('topup')
    .description('Prepaid mobile top-up service')
    .version(VERSION, '-V, --version', 'print the version')
    .showSuggestionAfterError()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  for (const register of [migrateCommand, serveCommand, workerCommand, accountsCommand, keysCommand, depositsCommand, ordersCommand, upstreamCommand, reconcileCommand, ratesCommand, webhooksCommand, portabilityCommand, demoCommand, auditCommand]) {
    register(program);
  }
  return program;
}

/** Runs the command line; a refused input ends with one line on stderr and exit code 1. */
export async function run(argv: readonly string[]): Promise<void> {
  const program = buildProgram();
  program.exitOverride();
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its one-line message; help and version exit 0.
      process.exitCode = error.exitCode;
      return;
    }
    const known = error instanceof AppError || error instanceof ConfigError || error instanceof CommandError;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`topup: ${known ? message : `unexpected error: ${message}`}\n`);
    process.exitCode = 1;
  }
}
