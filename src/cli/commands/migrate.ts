import type { Command } from 'commander';
import { withDeps } from '../context.js';
import { emit } from '../output.js';

export function migrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) =>
      withDeps(async (deps) => {
        emit(!!opts.json, { migrated: deps.migrated }, deps.migrated.length ? `applied ${deps.migrated.join(', ')}` : 'nothing to migrate');
      }),
    );
}
