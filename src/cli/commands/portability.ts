import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { importPortedNumbers } from '../../app/portability.js';
import { CommandError } from '../command-error.js';
import { withDeps } from '../context.js';
import { emit } from '../output.js';

export function portabilityCommand(program: Command): void {
  const portability = program.command('portability').description('numbers that moved to another operator');
  portability
    .command('import')
    .description('import a CSV of "number,operator" rows (whole file or nothing)')
    .argument('<file>', 'CSV file')
    .option('--json', 'print one JSON object')
    .action(async (file: string, opts: { json?: boolean }) => {
      const csv = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new CommandError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
      });
      await withDeps(async (deps) => {
        const result = await importPortedNumbers(deps, csv);
        emit(!!opts.json, result, `imported ${result.imported} ported numbers`);
      });
    });
}
