import type { Command } from 'commander';
import { fetchRate, setRate } from '../../app/rates.js';
import { presentRate } from '../../contract/rates.js';
import { withDeps } from '../context.js';
import { emit } from '../output.js';

export function ratesCommand(program: Command): void {
  const rates = program.command('rates').description('the EUR/RON exchange rate orders are priced with');
  rates
    .command('set')
    .description('store a rate by hand')
    .requiredOption('--eur-ron <rate>', 'RON per EUR, up to 4 decimals, e.g. 4.9773')
    .option('--json', 'print one JSON object')
    .action(async (opts: { eurRon: string; json?: boolean }) =>
      withDeps(async (deps) => {
        const rate = presentRate(await setRate(deps, opts.eurRon));
        emit(!!opts.json, rate, `EUR/RON ${rate.eurRon} stored (${rate.source})`);
      }),
    );
  rates
    .command('fetch')
    .description('fetch and store the rate from the National Bank of Romania feed (TOPUP_BNR_FEED_URL)')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) =>
      withDeps(async (deps) => {
        const rate = presentRate(await fetchRate(deps));
        emit(!!opts.json, rate, `EUR/RON ${rate.eurRon} of ${rate.rateDate} stored (${rate.source})`);
      }),
    );
}
