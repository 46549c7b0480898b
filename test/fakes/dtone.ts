import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local DT One DVS API (v1) that answers as its documentation says (UPSTREAMS.md): HTTP Basic auth,
 * `POST /async/transactions` with `external_id` unique, products fixed and ranged, the sandbox's
 * suffix rules (the last three digits of the number pick the outcome, the first of them the delay:
 * 1xx 3 s, 2xx 20 s, 3xx 5 min), held and released balances, lookups by id and by `external_id`,
 * paged products, the documented error codes, and callbacks on a final state. Time is the test's clock.
 * Controls let a test make it hang, lose an answer after acting, or rate-limit.
 */
export interface FakeProduct {
  readonly id: number;
  readonly operator: string;
  readonly type: 'FIXED_VALUE_RECHARGE' | 'RANGED_VALUE_RECHARGE';
  /** Fixed: the EUR amount; ranged: bounds and step, on the source side. */
  readonly amount: number | { min: number; max: number; increment: number };
}

interface Transaction {
  id: number;
  external_id: string;
  creation_date: string;
  createdAt: number;
  mobile: string;
  product: FakeProduct;
  price: number;
  callbackUrl?: string;
  finalState?: string;
  called?: boolean;
}

const OUTCOMES: Record<string, string> = {
  '0': 'COMPLETED',
  '1': 'COMPLETED',
  '2': 'DECLINED-INVALID-CREDIT-PARTY',
  '3': 'DECLINED-BARRED-CREDIT-PARTY',
  '4': 'DECLINED-OPERATOR-CURRENTLY-UNAVAILABLE',
  '5': 'DECLINED-DUPLICATED-TRANSACTION',
  '6': 'DECLINED',
  '7': 'DECLINED-EXCEPTION',
};
const DELAYS: Record<string, number> = { '1': 3_000, '2': 20_000, '3': 300_000 };
const CLASS_IDS: Record<string, number> = { CREATED: 1, CONFIRMED: 2, REJECTED: 3, CANCELLED: 4, SUBMITTED: 5, COMPLETED: 7, REVERSED: 8, DECLINED: 9 };

export class FakeDtone {
  private server!: Server;
  url = '';
  balance = 1000;
  holding = 0;
  readonly transactions: Transaction[] = [];
  /** Every request as received: method, path and parsed body. */
  readonly requests: Array<{ method: string; path: string; body: unknown }> = [];
  /** Callbacks posted: the URL and the transaction body. */
  readonly callbacks: Array<{ url: string; body: unknown }> = [];
  hangNext = 0;
  loseAnswerNext = 0;
  /** Creates the next transaction, then never answers (the caller's deadline passes after it acted). */
  stallAfterCreatingNext = 0;
  rateLimitNext = 0;
  private nextId = 4_000_000_001;

  constructor(
    private readonly credentials: { key: string; secret: string },
    readonly products: readonly FakeProduct[],
    private readonly now: () => number,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Posts the callbacks of transactions that reached a final state by now (DT One's retries aside). */
  async deliverCallbacks(): Promise<void> {
    for (const t of this.transactions) {
      if (!t.callbackUrl || t.called || !this.finalState(t)) continue;
      t.called = true;
      const body = this.view(t);
      this.callbacks.push({ url: t.callbackUrl, body });
      await fetch(t.callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).catch(() => undefined);
    }
  }

  /** DT One reverses a completed transaction (rare, manual): for reconciliation tests. */
  reverse(id: number): void {
    const t = this.transactions.find((x) => x.id === id)!;
    t.finalState = 'REVERSED';
  }

  private finalState(t: Transaction): string | undefined {
    if (t.finalState) return t.finalState;
    const suffix = t.mobile.slice(-3);
    const delay = DELAYS[suffix[0]!] ?? 3_000;
    if (this.now() < t.createdAt + delay) return undefined;
    t.finalState = (/^[123]0[0-7]$/.test(suffix) ? OUTCOMES[suffix[2]!] : undefined) ?? 'COMPLETED';
    // The hold is captured on completion, released on a decline.
    this.holding -= t.price;
    if (t.finalState !== 'COMPLETED') this.balance += t.price;
    return t.finalState;
  }

  private view(t: Transaction) {
    const state = this.finalState(t) ?? 'SUBMITTED';
    const classMessage = state.split('-')[0]!;
    const side = { unit_type: 'CURRENCY', unit: 'EUR', amount: t.product.amount };
    return {
      id: t.id,
      external_id: t.external_id,
      creation_date: t.creation_date,
      status: { id: CLASS_IDS[classMessage]! * 10000, message: state, class: { id: CLASS_IDS[classMessage]!, message: classMessage } },
      operator_reference: state === 'COMPLETED' ? `OPREF-${t.id}` : null,
      product: { id: t.product.id, name: `${t.product.operator} Romania`, type: t.product.type, source: side, destination: side },
      prices: { wholesale: { unit_type: 'CURRENCY', unit: 'EUR', amount: Math.round(t.price * 100 - 10) / 100, fee: 0.1 } },
    };
  }

  private send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  }

  private error(response: ServerResponse, status: number, code: number, message: string): void {
    this.send(response, status, { errors: [{ code, message }] });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text === '' ? undefined : JSON.parse(text);
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname.replace(/^\/v1/, '');
    this.requests.push({ method: request.method ?? 'GET', path: `${path}${url.search}`, body });

    const expected = `Basic ${Buffer.from(`${this.credentials.key}:${this.credentials.secret}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return this.error(response, 401, 1000401, 'Unauthorized');
    if (this.hangNext > 0) {
      this.hangNext--;
      return; // never answers
    }
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      return this.send(response, 429, { errors: [{ code: 1000429, message: 'Too many requests' }] }, { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' });
    }

    if (request.method === 'POST' && path === '/async/transactions') return this.create(body, request, response);
    if (request.method === 'GET' && path === '/transactions') {
      const externalId = url.searchParams.get('external_id');
      if (externalId !== null) return this.send(response, 200, this.transactions.filter((t) => t.external_id === externalId).map((t) => this.view(t)));
      const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 50));
      const page = Number(url.searchParams.get('page') ?? 1);
      const pages = Math.max(1, Math.ceil(this.transactions.length / perPage));
      const headers: Record<string, string> = { 'x-total': String(this.transactions.length), 'x-total-pages': String(pages) };
      if (page < pages) headers['x-next-page'] = String(page + 1);
      return this.send(response, 200, this.transactions.slice((page - 1) * perPage, page * perPage).map((t) => this.view(t)), headers);
    }
    const one = /^\/transactions\/(\d+)$/.exec(path);
    if (request.method === 'GET' && one) {
      const t = this.transactions.find((x) => x.id === Number(one[1]));
      return t ? this.send(response, 200, this.view(t)) : this.error(response, 404, 1008004, 'Transaction not found');
    }
    if (request.method === 'GET' && path === '/balances') {
      return this.send(response, 200, [{ id: 1, unit_type: 'CURRENCY', unit: 'EUR', available: this.balance, holding: this.holding, credit_limit: 0 }]);
    }
    if (request.method === 'GET' && path === '/products') return this.listProducts(url, response);
    return this.error(response, 404, 1008004, 'Not found');
  }

  private listProducts(url: URL, response: ServerResponse): void {
    const type = url.searchParams.get('type');
    const matching = this.products.filter((p) => (type ? p.type === type : true) && url.searchParams.get('country_iso_code') === 'ROU');
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 50));
    const page = Number(url.searchParams.get('page') ?? 1);
    const pages = Math.max(1, Math.ceil(matching.length / perPage));
    const body = matching.slice((page - 1) * perPage, page * perPage).map((p) => {
      const side = { unit_type: 'CURRENCY', unit: 'EUR', amount: p.amount };
      return { id: p.id, name: `${p.operator} Romania ${p.id}`, type: p.type, service: { id: 1, name: 'Mobile' }, operator: { id: 1, name: `${p.operator} Romania`, country: { iso_code: 'ROU', name: 'Romania' } }, source: side, destination: side };
    });
    const headers: Record<string, string> = { 'x-total': String(matching.length), 'x-total-pages': String(pages), 'x-per-page': String(perPage), 'x-page': String(page) };
    if (page < pages) headers['x-next-page'] = String(page + 1);
    this.send(response, 200, body, headers);
  }

  private create(body: Record<string, unknown> | undefined, request: IncomingMessage, response: ServerResponse): void {
    const b = body ?? {};
    if (typeof b.external_id !== 'string' || b.external_id.length > 40) return this.error(response, 400, 1002001, 'external_id is required (at most 40 characters)');
    if (b.auto_confirm !== true) return this.error(response, 400, 1002001, 'this fake expects auto_confirm: true');
    const product = this.products.find((p) => p.id === b.product_id);
    if (!product) return this.error(response, 404, 1008004, 'Product not found');
    const mobile = (b.credit_party_identifier as { mobile_number?: unknown } | undefined)?.mobile_number;
    if (typeof mobile !== 'string' || !/^\+\d{8,15}$/.test(mobile)) return this.error(response, 400, 1005003, 'Invalid mobile number');
    if (this.transactions.some((t) => t.external_id === b.external_id)) return this.error(response, 400, 1007001, 'External ID already used');
    let price: number;
    if (product.type === 'RANGED_VALUE_RECHARGE') {
      const mode = b.calculation_mode;
      const side = (mode === 'SOURCE_AMOUNT' ? b.source : mode === 'DESTINATION_AMOUNT' ? b.destination : undefined) as { unit_type?: unknown; unit?: unknown; amount?: unknown } | undefined;
      const range = product.amount as { min: number; max: number; increment: number };
      if (!side || side.unit_type !== 'CURRENCY' || side.unit !== 'EUR' || typeof side.amount !== 'number') return this.error(response, 400, 1002001, 'calculation_mode with its source or destination is required');
      const steps = Math.round((side.amount - range.min) / range.increment);
      if (side.amount < range.min || side.amount > range.max || Math.abs(range.min + steps * range.increment - side.amount) > 1e-9) return this.error(response, 400, 1003002, 'Amount out of range');
      price = side.amount;
    } else {
      price = product.amount as number;
    }
    if (price > this.balance) return this.error(response, 400, 1006001, 'Insufficient balance');
    this.balance -= price;
    this.holding += price;
    const at = this.now();
    const transaction: Transaction = {
      id: this.nextId++,
      external_id: b.external_id,
      creation_date: new Date(at).toISOString(),
      createdAt: at,
      mobile,
      product,
      price,
      ...(typeof b.callback_url === 'string' ? { callbackUrl: b.callback_url } : {}),
    };
    this.transactions.push(transaction);
    if (this.loseAnswerNext > 0) {
      this.loseAnswerNext--;
      request.socket.destroy();
      return;
    }
    if (this.stallAfterCreatingNext > 0) {
      this.stallAfterCreatingNext--;
      return;
    }
    this.send(response, 201, this.view(transaction));
  }
}
