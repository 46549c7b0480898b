import type { Command } from 'commander';
import { createAccount, listAccounts } from '../../app/accounts.js';
import { presentAccount } from '../../contract/account.js';
import { withDeps } from '../context.js';
import { emit } from '../output.js';

export function accountsCommand(program: Command): void {
  const accounts = program.command('accounts').description('create and list customer accounts');
  accounts
    .command('create')
    .description('create an account')
    .requiredOption('--name <name>', 'account name')
    .option('--currency <currency>', 'RON or EUR', 'RON')
    .option('--json', 'print one JSON object')
    .action(async (opts: { name: string; currency: string; json?: boolean }) =>
      withDeps(async (deps) => {
        const account = await createAccount(deps, { name: opts.name, currency: opts.currency });
        emit(!!opts.json, { id: account.id, name: account.name, currency: account.currency }, `created account ${account.id} (${account.name}, ${account.currency})`);
      }),
    );
  accounts
    .command('list')
    .description('list accounts')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) =>
      withDeps(async (deps) => {
        const data = (await listAccounts(deps)).map(presentAccount);
        emit(!!opts.json, { data }, data.map((a) => `${a.id}  ${a.name}  ${a.balance} ${a.currency}`).join('\n') || '(no accounts)');
      }),
    );
}
