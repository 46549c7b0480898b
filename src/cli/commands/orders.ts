import { InvalidArgumentError, type Command } from 'commander';
import { requireAccount } from '../../app/accounts.js';
import { listOrders } from '../../app/orders.js';
import { ordersForReview, resolveOrder } from '../../app/review-orders.js';
import { envelope } from '../../contract/common.js';
import { presentOrderRecord } from '../../contract/orders.js';
import { isoTime } from '../../contract/common.js';
import { toJsonNumber } from '../../domain/money.js';
import { ORDER_STATUSES, type OrderStatus } from '../../domain/order-status.js';
import { MAX_PAGE_LIMIT } from '../../domain/pagination.js';
import { withDeps } from '../context.js';
import { emit } from '../output.js';
import { CommandError } from '../command-error.js';

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

  orders
    .command('review')
    .description('orders no upstream has answered for in 48 hours: check each with the provider, then resolve it')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) =>
      withDeps(async (deps) => {
        const now = deps.clock.now();
        const data = (await ordersForReview(deps)).map(({ order, attempt }) => ({
          recharge_uuid: order.id,
          account_id: order.accountId,
          number: order.msisdn,
          amount: toJsonNumber(order.amount),
          recharge_status: order.status,
          created_at: isoTime(order.createdAt),
          attempt: { reference: attempt.reference, connector: attempt.connector, upstream_id: attempt.upstreamId, state: attempt.state, detail: attempt.detail, sent_at: isoTime(attempt.createdAt) },
          waiting_hours: Math.floor((now - attempt.createdAt) / 3_600_000),
        }));
        const lines = data.map((o) => `${o.recharge_uuid}  ${o.number}  ${o.amount} EUR  via ${o.attempt.connector} ref ${o.attempt.reference}  waiting ${o.waiting_hours} h  ${o.attempt.detail ?? ''}`);
        emit(!!opts.json, { data }, lines.join('\n') || '(no order awaits review)');
      }),
    );
  orders
    .command('resolve <id>')
    .description('settle an open order by hand after checking with the provider (kept in an audit trail; --failed refunds)')
    .option('--succeeded', 'the provider performed the top-up')
    .option('--failed', 'the provider did not perform it: the order fails and is refunded')
    .requiredOption('--note <text>', 'why: what the provider said (kept with the resolution)')
    .option('--force', 'resolve an order that is not awaiting review (you checked with the provider)')
    .option('--json', 'print one JSON object')
    .action(async (id: string, opts: { succeeded?: boolean; failed?: boolean; note: string; force?: boolean; json?: boolean }) =>
      withDeps(async (deps) => {
        if (!!opts.succeeded === !!opts.failed) throw new CommandError('say exactly one of --succeeded or --failed');
        const order = await resolveOrder(deps, id, opts.succeeded ? 'SUCCESS' : 'FAILED', opts.note, { force: !!opts.force });
        const result = { recharge_uuid: order.id, recharge_status: order.status, note: opts.note };
        emit(!!opts.json, result, `${order.id} resolved as ${order.status}${order.status === 'FAILED' ? ' (refunded)' : ''}`);
      }),
    );
}
