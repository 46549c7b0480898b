import { InvalidArgumentError, type Command } from 'commander';
import { reconcile } from '../../app/reconcile.js';
import { isoTime } from '../../contract/common.js';
import { configuredUpstreams } from '../../upstreams.js';
import { CommandError } from '../command-error.js';
import { withDeps } from '../context.js';
import { emit } from '../output.js';

const instant = (value: string): number => {
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new InvalidArgumentError('an ISO 8601 date-time, e.g. 2026-11-21T00:00:00Z');
  return at;
};

export function reconcileCommand(program: Command): void {
  program
    .command('reconcile')
    .description("compare our attempts through an upstream with the upstream's own transactions; exit 1 on any difference")
    .requiredOption('--connector <name>', 'a connector of TOPUP_UPSTREAM')
    .option('--from <iso>', 'start of the period (default: 24 hours ago)', instant)
    .option('--to <iso>', 'end of the period (default: now)', instant)
    .option('--json', 'print one JSON object')
    .action(async (opts: { connector: string; from?: number; to?: number; json?: boolean }) =>
      withDeps(async (deps) => {
        const upstreams = configuredUpstreams(deps);
        const upstream = upstreams.find((u) => u.name === opts.connector);
        if (!upstream) throw new CommandError(`no connector ${opts.connector} in TOPUP_UPSTREAM (configured: ${upstreams.map((u) => u.name).join(', ')})`);
        if (!upstream.transactions) throw new CommandError(`the ${upstream.name} connector cannot list its transactions`);
        const to = opts.to ?? deps.clock.now();
        const from = opts.from ?? to - 86_400_000;
        if (from > to) throw new CommandError('--from must not be after --to');
        const result = await reconcile(deps, upstream, { from, to });
        const mismatches = result.mismatches.map((m) => ({ kind: m.kind, reference: m.reference, order_id: m.orderId, upstream_id: m.upstreamId, ours: m.ours, theirs: m.theirs }));
        const ok = mismatches.length === 0;
        const summary = { ok, connector: result.connector, from: isoTime(from), to: isoTime(to), ours: result.ours, theirs: result.theirs, mismatches };
        const lines = [
          `${result.connector} ${summary.from} → ${summary.to}: ${result.ours} attempts of ours, ${result.theirs} transactions of theirs, ${mismatches.length} difference(s)`,
          ...mismatches.map((m) => `  ${m.kind}  ${m.reference ?? m.upstream_id}: ours ${m.ours}, theirs ${m.theirs}`),
        ];
        emit(!!opts.json, summary, lines.join('\n'));
        if (!ok) process.exitCode = 1;
      }),
    );
}
