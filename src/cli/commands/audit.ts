import type { Command } from 'commander';
import { audit } from '../../app/audit.js';
import { withDeps } from '../context.js';
import { emit } from '../output.js';

export function auditCommand(program: Command): void {
  program
    .command('audit')
    .description('reconcile the books; exits 1 on any difference')
    .option('--account <id>', 'only this account')
    .option('--json', 'print one JSON object')
    .action(async (opts: { account?: string; json?: boolean }) =>
      withDeps(async (deps) => {
        const report = await audit(deps, opts.account);
        const human = report.ok
          ? `books reconcile: ${report.accounts} account(s), ${report.orders} order(s)`
          : report.problems.map((p) => `${p.account ?? p.order}: ${p.check}: expected ${p.expected}, found ${p.actual}`).join('\n');
        emit(!!opts.json, report, human);
        if (!report.ok) process.exitCode = 1;
      }),
    );
}
