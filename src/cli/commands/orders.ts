import { InvalidArgumentError, type Command } from 'commander';
import { requireAccount } from '../../app/accounts.js';
import { listOrders } from '../../app/orders.js';
import { envelope } from '../../contract/common.js';
import { presentOrderRecord } from '../../contract/orders.js';
import { ORDER_STATUSES, type OrderStatus } from '../../domain/order-status.js';
import { MAX_PAGE_LIMIT } from '../../domain/pagination.js';
import { withDeps } from '../context.js';
import { emit } from '../output.js';

const status = (value: string): OrderStatus => {
  if (!(ORDER_STATUSES as readonly string[]).includes(value)) throw new InvalidArgumentError(ORDER_STATUSES.join(', '));
  return value as OrderStatus;
};

const whole = (max: number) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max) throw new InvalidArgumentError(`a whole number from 1 to ${max}`);
  return n;
};

export function ordersCommand(program: Command): void {
  const orders = program.command('orders').description("a customer's orders, as the API lists them, without their key");
  orders
    .command('list')
    .description("list an account's orders, most recent first")
    .requiredOption('--account <id>', 'account id')
    .option('--status <status>', ORDER_STATUSES.join(', '), status)
    .option('--phone-number <number>', 'only this number (any accepted form)')
    .option('--page <n>', 'page, from 1', whole(10_000_000), 1)
    .option('--limit <n>', `orders per page, up to ${MAX_PAGE_LIMIT}`, whole(MAX_PAGE_LIMIT), 20)
    .option('--json', 'print one JSON object')
    .action(async (opts: { account: string; status?: OrderStatus; phoneNumber?: string; page: number; limit: number; json?: boolean }) =>
      withDeps(async (deps) => {
        await requireAccount(deps, opts.account);
        const { orders: found, page } = await listOrders(deps, opts.account, { page: opts.page, limit: opts.limit, status: opts.status, phone_number: opts.phoneNumber });
        const result = envelope(found.map(presentOrderRecord), page);
        const lines = result.data.map((o) => `${o.recharge_uuid}  ${o.number}  ${o.amount} EUR  ${o.recharge_status}${o.failure_reason ? ` (${o.failure_reason})` : ''}  ${o.created_at}`);
        emit(!!opts.json, result, lines.join('\n') || '(no orders)');
      }),
    );
}
