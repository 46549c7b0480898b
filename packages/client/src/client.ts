import { everyRecord } from './paging.js';
import { TopupApiError } from './errors.js';
import { randomKey, Transport, type TransportOptions } from './transport.js';
import type {
  AccountSummary,
  Activity,
  Balance,
  CheckNumberResult,
  CreateKey,
  DeliveryFilter,
  DeliveryRecord,
  DepositRecord,
  KeyCreated,
  KeyRecord,
  OrderDetail,
  OrderFilter,
  OrderRecord,
  Pong,
  Quote,
  QuoteRequest,
  RechargePlaced,
  RechargeRequest,
  WebhookCreated,
  WebhookRecord,
} from './types.js';

export type TopupClientOptions = TransportOptions;

/** A page of 100: the most a listing gives at once, so the fewest requests. */
const PAGE = 100;
/** An export of a large account streams for minutes: its deadline is its own. */
const EXPORT_TIMEOUT_MS = 15 * 60_000;
const segment = encodeURIComponent;

/** A placement's answer, and whether it is the replay of one placed before under the same key. */
export type Placed = RechargePlaced & { readonly replayed: boolean; readonly idempotencyKey: string };

/**
 * The top-up API, typed from its OpenAPI document. Calls that are safe to repeat are retried on network
 * errors, 409 `idempotency_key_in_use`, 429 (after `Retry-After`) and 5xx, with exponential back-off and
 * jitter; a recharge always carries an `Idempotency-Key` (made when not given), the same on every try,
 * so a retried recharge never orders twice.
 */
export class TopupClient {
  private readonly http: Transport;

  constructor(options: TopupClientOptions) {
    this.http = new Transport(options);
  }

  /** Checks a number (any form: 0744 123 456, +40744123456, …); a recharge needs one within 24 hours. */
  checkNumber(phoneNumber: string): Promise<CheckNumberResult> {
    return this.http.json({ method: 'POST', path: '/v1/check-number', body: { phone_number: phoneNumber }, repeatable: true });
  }

  /** Prices a recharge request exactly as placing it would, without storing or charging anything. */
  quote(request: QuoteRequest): Promise<Quote> {
    return this.http.json({ method: 'POST', path: '/v1/recharge/quote', body: request, repeatable: true });
  }

  /** Places top-ups, all or nothing, under `idempotencyKey` (a random one when not given). */
  async recharge(request: RechargeRequest, options: { idempotencyKey?: string } = {}): Promise<Placed> {
    const idempotencyKey = options.idempotencyKey ?? randomKey();
    try {
      const answer = await this.http.send({ method: 'POST', path: '/v1/recharge', body: request, idempotencyKey, repeatable: true });
      const placed = JSON.parse(answer.text) as RechargePlaced;
      return { ...placed, replayed: answer.headers.get('idempotent-replayed') === 'true', idempotencyKey };
    } catch (error) {
      // The outcome may be unknown (no answer): the key travels with the error, to retry under it.
      if (error instanceof TopupApiError) error.idempotencyKey = idempotencyKey;
      throw error;
    }
  }

  ping(): Promise<Pong> {
    return this.http.json({ method: 'POST', path: '/v1/ping', repeatable: true });
  }

  readonly account = {
    get: (): Promise<AccountSummary> => this.read('/v1/account'),
    balance: (): Promise<Balance> => this.read('/v1/account/balance'),
    /** Orders and charges per UTC day and status over the last `days` days (30 by default). */
    activity: (days?: number): Promise<Activity> => this.read('/v1/account/activity', { days }),
  };

  readonly orders = {
    /** Every order matching the filter, most recent first, following the pages. */
    list: (filter: OrderFilter = {}): AsyncGenerator<OrderRecord> => {
      const limit = filter.limit ?? PAGE;
      return everyRecord(
        (cursor) => this.read('/v1/account/recharges', { ...filter, limit, ...cursor }),
        (order) => order.recharge_uuid,
        limit,
      );
    },
    get: (rechargeId: string): Promise<OrderDetail> => this.read(`/v1/account/recharges/${segment(rechargeId)}`),
    /** Every order matching the filter as CSV text (the service streams it; this reads it whole). */
    exportCsv: async (filter: OrderFilter = {}): Promise<string> => {
      const answer = await this.http.send({ method: 'GET', path: '/v1/account/recharges', query: { ...filter, format: 'csv' }, repeatable: true, accept: 'text/csv', timeoutMs: EXPORT_TIMEOUT_MS });
      return answer.text;
    },
  };

  readonly deposits = {
    list: (): AsyncGenerator<DepositRecord> =>
      everyRecord((cursor) => this.read('/v1/account/deposits', { limit: PAGE, ...cursor }), (deposit) => deposit.id, PAGE),
  };

  readonly webhooks = {
    list: async (): Promise<WebhookRecord[]> => (await this.read<{ data: WebhookRecord[] }>('/v1/webhooks')).data,
    /** Registers an endpoint; the signing secret is in the answer this once. */
    create: (endpoint: { name: string; url: string }): Promise<WebhookCreated> => this.http.json({ method: 'POST', path: '/v1/webhooks', body: endpoint, repeatable: false }),
    delete: (name: string): Promise<void> => this.http.json({ method: 'DELETE', path: `/v1/webhooks/${segment(name)}`, repeatable: true }),
    enable: (name: string): Promise<{ name: string; enabled: true }> => this.http.json({ method: 'POST', path: `/v1/webhooks/${segment(name)}/enable`, repeatable: true }),
    /** A new secret; for 24 hours deliveries carry signatures by both. */
    rotateSecret: (name: string): Promise<{ name: string; secret: string }> =>
      this.http.json({ method: 'POST', path: `/v1/webhooks/${segment(name)}/rotate-secret`, repeatable: false }),
    /** Queues a `webhook.test` event; answers its delivery id. */
    test: (name: string): Promise<{ id: string }> => this.http.json({ method: 'POST', path: `/v1/webhooks/${segment(name)}/test`, repeatable: false }),
    /** Every delivery matching the filter, most recent first, with its attempts. */
    deliveries: (filter: DeliveryFilter = {}): AsyncGenerator<DeliveryRecord> => this.pagesOfDeliveries(filter),
    redeliver: (deliveryId: string): Promise<{ id: string; status: 'pending' }> =>
      this.http.json({ method: 'POST', path: `/v1/webhooks/deliveries/${segment(deliveryId)}/redeliver`, repeatable: true }),
  };

  readonly keys = {
    list: async (): Promise<KeyRecord[]> => (await this.read<{ data: KeyRecord[] }>('/v1/keys')).data,
    /** Issues a key (shown this once in the answer). */
    create: (options: CreateKey = {}): Promise<KeyCreated> => this.http.json({ method: 'POST', path: '/v1/keys', body: options, repeatable: false }),
    revoke: (keyId: string): Promise<void> => this.http.json({ method: 'DELETE', path: `/v1/keys/${segment(keyId)}`, repeatable: true }),
  };

  /** A GET: a read, safe to repeat. */
  private read<T>(path: string, query?: Record<string, string | number | boolean | undefined>): Promise<T> {
    return this.http.json<T>({ method: 'GET', path, query, repeatable: true });
  }

  /**
   * Deliveries have no keyset cursor: pages by number, until the last. A delivery made while paging
   * shifts the pages, so a record may come twice: dropped here by id.
   */
  private async *pagesOfDeliveries(filter: DeliveryFilter): AsyncGenerator<DeliveryRecord> {
    const seen = new Set<string>();
    for (let page = 1; ; page++) {
      const answer = await this.read<{ data: DeliveryRecord[]; pagination: { total_pages: number } }>('/v1/webhooks/deliveries', { ...filter, limit: filter.limit ?? PAGE, page });
      for (const delivery of answer.data) {
        if (seen.has(delivery.id)) continue;
        seen.add(delivery.id);
        yield delivery;
      }
      if (page >= answer.pagination.total_pages) return;
    }
  }
}
