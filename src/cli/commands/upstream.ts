import type { Command } from 'commander';
import { syncProducts } from '../../app/catalogue.js';
import { refreshBalances } from '../../app/upstream-float.js';
import { isoTimeOrNull } from '../../contract/common.js';
import { formatDecimal } from '../../domain/money.js';
import { configuredUpstreams } from '../../upstreams.js';
import { withDeps } from '../context.js';
import { emit } from '../output.js';

export function upstreamCommand(program: Command): void {
  const upstream = program.command('upstream').description('the upstream providers that perform the top-ups (TOPUP_UPSTREAM)');
  upstream
    .command('balance')
    .description('read our credit with every upstream that keeps a float, now, and store it')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) =>
      withDeps(async (deps) => {
        const floats = await refreshBalances(deps, configuredUpstreams(deps));
        const data = floats.map((f) => ({
          connector: f.connector,
          available: f.available === null ? null : Number(formatDecimal(f.available)),
          currency: f.currency,
          checked_at: isoTimeOrNull(f.checkedAt),
          out_of_float_since: isoTimeOrNull(f.outOfFloatSince),
          ...(f.error ? { error: f.error } : {}),
        }));
        const lines = data.map(
          (f) =>
            `${f.connector}: ${f.available ?? '?'} ${f.currency ?? ''}  (checked ${f.checked_at ?? 'never'})${f.out_of_float_since ? `  OUT OF FLOAT since ${f.out_of_float_since}` : ''}${f.error ? `  error: ${f.error}` : ''}`,
        );
        emit(!!opts.json, { data }, lines.join('\n') || '(no configured upstream keeps a float)');
      }),
    );
  const products = upstream.command('products').description("the catalogue upstreams' products for Romanian operators");
  products
    .command('sync')
    .description('read every catalogue upstream\'s products now and replace the stored catalogue')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) =>
      withDeps(async (deps) => {
        const synced = await syncProducts(deps, configuredUpstreams(deps));
        const data = synced.map((s) => ({ connector: s.connector, products: s.products, by_operator: s.byOperator }));
        const lines = data.map((s) => `${s.connector}: ${s.products} products (${Object.entries(s.by_operator).map(([o, n]) => `${o} ${n}`).join(', ') || 'none for Romanian operators'})`);
        emit(!!opts.json, { data }, lines.join('\n') || '(no configured upstream sells from a catalogue)');
      }),
    );
}
