import { randomBytes } from 'node:crypto';
import { checkWebhookUrl, hostOf, isPublicAddress } from '../domain/address-policy.js';
import { AppError } from '../domain/errors.js';
import { removedName, SECRET_OVERLAP_MS, WEBHOOK_NAME, type WebhookEndpoint } from '../domain/webhook-endpoint.js';
import type { DeliveryAttempt, DeliveryStatus, WebhookEvent } from '../domain/webhook-event.js';
import { notifyWorkers } from '../store/notify.js';
import * as store from '../store/webhooks.repository.js';
import { requireAccount } from './accounts.js';
import type { Deps } from './deps.js';
import { pageInfo, pageOffset, type PageInfo } from '../domain/pagination.js';
import { newId } from './ids.js';
import type { ResolvedAddress } from './ports.js';

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Where a delivery may go, or why not: refused by the address rules, or (for now) not resolvable. */
export type Destination =
  | { readonly ok: true; readonly url: URL; readonly address: ResolvedAddress }
  | { readonly ok: false; readonly refused: boolean; readonly reason: string };

/**
 * Where a delivery may go: the URL's host resolved, and every address it resolves to public, unless
 * private addresses are allowed (staging). Returns the checked address to connect to, so a DNS answer
 * that changes between the check and the connection (rebinding) cannot redirect the request. A URL or
 * an address the rules refuse is `refused` (it will not change by waiting); a name that does not
 * resolve now may later.
 */
export async function findDestination(deps: Deps, urlText: string): Promise<Destination> {
  const verdict = checkWebhookUrl(urlText, deps.config.webhookAllowPrivate);
  if (!verdict.ok) return { ok: false, refused: true, reason: `The webhook URL ${verdict.reason}.` };
  const host = verdict.url.hostname;
  let addresses: ResolvedAddress[];
  try {
    addresses = await deps.resolveHost(hostOf(verdict.url));
  } catch (error) {
    // Not found, or no answer within the deadline: a later attempt may resolve it, so this is no refusal.
    return { ok: false, refused: false, reason: `The webhook host ${host} cannot be resolved (${(error as Error).message}).` };
  }
  if (addresses.length === 0) return { ok: false, refused: false, reason: `The webhook host ${host} has no address.` };
  if (!deps.config.webhookAllowPrivate) {
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    if (blocked) {
      return {
        ok: false,
        refused: true,
        reason: `The webhook host ${host} resolves to ${blocked.address}, which is not a public unicast address (private, loopback, link-local, reserved or special-purpose).`,
      };
    }
  }
  return { ok: true, url: verdict.url, address: addresses[0]! };
}

/** The destination of a URL being registered: anything but a usable one is refused. */
async function requireDestination(deps: Deps, urlText: string): Promise<void> {
  const destination = await findDestination(deps, urlText);
  if (!destination.ok) throw new AppError('validation_failed', destination.reason);
}

/** Registers an endpoint; the result carries its signing secret, which is shown to the customer once. */
export async function addWebhook(deps: Deps, input: { accountId: string; name: string; url: string }): Promise<WebhookEndpoint> {
  if (!WEBHOOK_NAME.test(input.name)) {
    throw new AppError('validation_failed', 'A webhook name is 1 to 64 letters, digits, dots, dashes or underscores.');
  }
  await requireAccount(deps, input.accountId);
  await requireDestination(deps, input.url);
  if (await store.findEndpointByName(deps.store.db, input.accountId, input.name)) {
    throw new AppError('webhook_exists', `A webhook named "${input.name}" already exists for this account.`);
  }
  const endpoint: WebhookEndpoint = {
    id: newId('wh'),
    accountId: input.accountId,
    name: input.name,
    url: input.url,
    secret: newWebhookSecret(),
    disabledAt: null,
    disabledReason: null,
    createdAt: deps.clock.now(),
    previousSecret: null,
    previousSecretUntil: null,
  };
  await store.insertEndpoint(deps.store.db, endpoint);
  return endpoint;
}

export async function listWebhooks(deps: Deps, accountId: string): Promise<WebhookEndpoint[]> {
  await requireAccount(deps, accountId);
  return store.listEndpoints(deps.store.db, accountId);
}

/** Turns an endpoint back on (after a 410 disabled it); the events queued for it meanwhile stay failed. */
export async function enableWebhook(deps: Deps, accountId: string, name: string): Promise<void> {
  const endpoint = await requireEndpoint(deps, accountId, name);
  await store.setEndpointDisabled(deps.store.db, endpoint.id, null);
}

export interface Delivery {
  readonly event: WebhookEvent;
  readonly attempts: readonly DeliveryAttempt[];
}

/** The account's deliveries, most recent first, each with every attempt made. */
export async function listDeliveries(deps: Deps, accountId: string, filter: { status?: DeliveryStatus; limit?: number } = {}): Promise<Delivery[]> {
  await requireAccount(deps, accountId);
  return withAttempts(deps, await store.listEvents(deps.store.db, accountId, { status: filter.status, limit: filter.limit ?? 100 }));
}

/** Deliveries with every attempt each, read in one query. */
async function withAttempts(deps: Deps, events: readonly WebhookEvent[]): Promise<Delivery[]> {
  const attempts = await store.listAttemptsOf(deps.store.db, events.map((e) => e.id));
  return events.map((event) => ({ event, attempts: attempts.get(event.id) ?? [] }));
}

/** One page of the account's deliveries, most recent first, with every attempt, and how many there are. */
export async function pageOfDeliveries(
  deps: Deps,
  accountId: string,
  request: { status?: DeliveryStatus; order_id?: string; page: number; limit: number },
): Promise<{ deliveries: Delivery[]; page: PageInfo }> {
  const filter = { status: request.status, orderId: request.order_id };
  const [events, total] = await Promise.all([
    store.listEvents(deps.store.db, accountId, { ...filter, limit: request.limit, offset: pageOffset(request) }),
    store.countEvents(deps.store.db, accountId, filter),
  ]);
  return { deliveries: await withAttempts(deps, events), page: pageInfo(request, total) };
}

/**
 * Queues a delivered or failed delivery again, due now, with a fresh retry schedule. With `accountId`,
 * only a delivery of that account (another's is "no such delivery").
 */
export async function redeliver(deps: Deps, eventId: string, accountId?: string): Promise<void> {
  const event = await store.findEvent(deps.store.db, eventId);
  if (!event || (accountId !== undefined && event.accountId !== accountId)) throw new AppError('not_found', `No webhook delivery ${eventId}.`);
  if (!(await store.requeueEvent(deps.store.db, eventId, deps.clock.now()))) {
    throw new AppError('validation_failed', `Delivery ${eventId} is still pending; it is already queued.`);
  }
  deps.signal.notify('events');
  await notifyWorkers(deps.store.db, 'events');
}

async function requireEndpoint(deps: Deps, accountId: string, name: string): Promise<WebhookEndpoint> {
  const endpoint = await store.findEndpointByName(deps.store.db, accountId, name);
  if (!endpoint) throw new AppError('not_found', `No webhook named "${name}".`);
  return endpoint;
}

/**
 * Gives an endpoint a new secret, shown this once. For 24 hours every delivery is signed with both the
 * new and the old secret (`webhook-signature` carries both `v1,` signatures), so the receiver can move
 * to the new one without refusing a delivery.
 */
export async function rotateWebhookSecret(deps: Deps, accountId: string, name: string): Promise<{ name: string; secret: string }> {
  const endpoint = await requireEndpoint(deps, accountId, name);
  const secret = newWebhookSecret();
  await store.rotateEndpointSecret(deps.store.db, endpoint.id, secret, deps.clock.now() + SECRET_OVERLAP_MS);
  return { name, secret };
}

/**
 * Removes an endpoint: nothing more is sent to it (deliveries still queued for it fail as such), its
 * name is free again, and its deliveries stay listed.
 */
export async function removeWebhook(deps: Deps, accountId: string, name: string): Promise<void> {
  const endpoint = await requireEndpoint(deps, accountId, name);
  await store.removeEndpoint(deps.store.db, endpoint.id, removedName(endpoint), deps.clock.now());
}

/** Queues a `webhook.test` event to an endpoint, delivered, signed and logged like any other. */
export async function sendTestEvent(deps: Deps, accountId: string, name: string): Promise<string> {
  const endpoint = await requireEndpoint(deps, accountId, name);
  const now = deps.clock.now();
  const id = newId('msg');
  const payload = JSON.stringify({ type: 'webhook.test', timestamp: new Date(now).toISOString(), data: { webhook: name } });
  await deps.store.transact(async (tx) => {
    await store.insertEvent(tx, { id, accountId, endpointId: endpoint.id, orderId: '', type: 'webhook.test', payload, createdAt: now });
    await notifyWorkers(tx, 'events');
  });
  deps.signal.notify('events');
  return id;
}
