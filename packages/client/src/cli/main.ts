#!/usr/bin/env node
import { Command, InvalidArgumentError } from 'commander';
import { TopupClient } from '../client.js';
import { TopupApiError } from '../errors.js';
import { BulkError, bulkTopUp } from './bulk.js';

const minutes = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('a number of minutes above 0');
  return n;
};

const program = new Command('topup-client').description('Command line of the top-up API client');

program
  .command('bulk')
  .description('top up every row of a CSV file (phone_number,amount[,fast_recharge][,document_id]), checked and quoted first')
  .argument('<file>', 'the CSV file')
  .option('--base-url <url>', 'the service (default TOPUP_BASE_URL or http://127.0.0.1:8080)')
  .option('--api-key <key>', 'an API key (default TOPUP_API_KEY)')
  .option('--fast', 'fast recharge for rows that do not say', false)
  .option('--yes', 'place without asking for confirmation', false)
  .option('--wait', 'wait until every order has settled', false)
  .option('--wait-timeout <minutes>', 'stop waiting after this long (default 60)', minutes)
  .option('--out <file>', 'write each row with its recharge_id, final status and failure reason')
  .action(async (file: string, opts: { baseUrl?: string; apiKey?: string; fast: boolean; yes: boolean; wait: boolean; waitTimeout?: number; out?: string }) => {
    const apiKey = opts.apiKey ?? process.env.TOPUP_API_KEY;
    if (!apiKey) throw new BulkError('An API key is needed: --api-key or TOPUP_API_KEY.');
    const client = new TopupClient({ apiKey, baseUrl: opts.baseUrl ?? process.env.TOPUP_BASE_URL ?? 'http://127.0.0.1:8080' });
    await bulkTopUp(client, file, {
      fast: opts.fast,
      yes: opts.yes,
      wait: opts.wait,
      ...(opts.waitTimeout ? { waitTimeoutMs: opts.waitTimeout * 60_000 } : {}),
      ...(opts.out ? { out: opts.out } : {}),
    });
  });

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof BulkError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof TopupApiError) process.stderr.write(`${error.message} (${error.code}${error.requestId ? `, request ${error.requestId}` : ''})\n`);
  else throw error;
  process.exitCode = 1;
}
