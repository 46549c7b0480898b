import { InvalidArgumentError, type Command } from 'commander';
import { addWebhook, enableWebhook, listDeliveries, listWebhooks, redeliver } from '../../app/webhooks.js';
import { presentDelivery, presentWebhookEndpoint } from '../../contract/webhooks.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../domain/webhook-event.js';
import { withDeps } from '../context.js';
import { emit } from '../output.js';

const deliveryStatus = (value: string): DeliveryStatus => {
  if (!(DELIVERY_STATUSES as readonly string[]).includes(value)) throw new InvalidArgumentError('pending, delivered or failed');
  return value as DeliveryStatus;
};

export function webhooksCommand(program: Command): void {
  const webhooks = program.command('webhooks').description("an account's webhook endpoints and deliveries");
  webhooks
    .command('add')
    .description('register an endpoint (name it "default" to receive orders that name none)')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'endpoint name, sent as webhook_name')
    .requiredOption('--url <url>', 'https URL that receives the events')
    .option('--json', 'print one JSON object')
    .action(async (opts: { account: string; name: string; url: string; json?: boolean }) =>
      withDeps(async (deps) => {
        const endpoint = await addWebhook(deps, { accountId: opts.account, name: opts.name, url: opts.url });
        const { name, url, secret } = endpoint;
        emit(!!opts.json, { name, url, secret }, `webhook ${name} → ${url}\nsigning secret (shown once): ${secret}`);
      }),
    );
  webhooks
    .command('list')
    .description("list an account's endpoints")
    .requiredOption('--account <id>', 'account id')
    .option('--json', 'print one JSON object')
    .action(async (opts: { account: string; json?: boolean }) =>
      withDeps(async (deps) => {
        const data = (await listWebhooks(deps, opts.account)).map(presentWebhookEndpoint);
        emit(!!opts.json, { data }, data.map((w) => `${w.name}  ${w.url}  ${w.enabled ? 'enabled' : `disabled (${w.disabled_reason})`}`).join('\n') || '(no webhooks)');
      }),
    );
  webhooks
    .command('enable')
    .description('re-enable an endpoint that was disabled (for example after it answered 410)')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'endpoint name')
    .option('--json', 'print one JSON object')
    .action(async (opts: { account: string; name: string; json?: boolean }) =>
      withDeps(async (deps) => {
        await enableWebhook(deps, opts.account, opts.name);
        emit(!!opts.json, { name: opts.name, enabled: true }, `webhook ${opts.name} enabled`);
      }),
    );
  webhooks
    .command('deliveries')
    .description("list an account's deliveries, most recent first, with every attempt")
    .requiredOption('--account <id>', 'account id')
    .option('--status <status>', 'pending, delivered or failed', deliveryStatus)
    .option('--json', 'print one JSON object')
    .action(async (opts: { account: string; status?: DeliveryStatus; json?: boolean }) =>
      withDeps(async (deps) => {
        const data = (await listDeliveries(deps, opts.account, { status: opts.status })).map((d) => presentDelivery(d.event, d.attempts));
        emit(!!opts.json, { data }, data.map((d) => `${d.id}  ${d.type}  ${d.status}  ${d.attempts.length} attempt(s)`).join('\n') || '(no deliveries)');
      }),
    );
  webhooks
    .command('redeliver')
    .description('queue a delivery again, due now, with a fresh retry schedule')
    .argument('<deliveryId>', 'delivery id (msg_…)')
    .option('--json', 'print one JSON object')
    .action(async (id: string, opts: { json?: boolean }) =>
      withDeps(async (deps) => {
        await redeliver(deps, id);
        emit(!!opts.json, { id, status: 'pending' }, `delivery ${id} queued`);
      }),
    );
}
