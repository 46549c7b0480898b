import type { Command } from 'commander';
import { addDeposit } from '../../app/deposits.js';
import { toJsonNumber } from '../../domain/money.js';
import { withDeps } from '../context.js';
import { emit } from '../output.js';

export function depositsCommand(program: Command): void {
  const deposits = program.command('deposits').description('record money received from a customer');
  deposits
    .command('add')
    .description("credit an account's balance")
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--amount <amount>', "amount in the account's currency, e.g. 100.00")
    .option('--reference <text>', 'bank reference or note')
    .option('--json', 'print one JSON object')
    .action(async (opts: { account: string; amount: string; reference?: string; json?: boolean }) =>
      withDeps(async (deps) => {
        const { deposit, balance } = await addDeposit(deps, { accountId: opts.account, amount: opts.amount, reference: opts.reference });
        const result = { id: deposit.id, amount: toJsonNumber(deposit.amount), currency: deposit.currency, balance: toJsonNumber(balance) };
        emit(!!opts.json, result, `deposit ${result.id}: ${result.amount} ${result.currency}; balance ${result.balance} ${result.currency}`);
      }),
    );
}
