import type { Command } from 'commander';
import { createDemoAccount } from '../../app/demo.js';
import { toJsonNumber } from '../../domain/money.js';
import { withDeps } from '../context.js';
import { curlExample, emit } from '../output.js';

export function demoCommand(program: Command): void {
  program
    .command('demo')
    .description('create a staging demo account with test credit and a key')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) =>
      withDeps(async (deps) => {
        const demo = await createDemoAccount(deps);
        const base = `http://${deps.config.host}:${deps.config.port}`;
        const curl = curlExample(base, demo.key);
        const balance = toJsonNumber(demo.balance);
        emit(!!opts.json, { ...demo, balance, baseUrl: base, curl }, `demo account ${demo.accountId} with ${balance} ${demo.currency}\nkey: ${demo.key}\ntry: ${curl}`);
      }),
    );
}
