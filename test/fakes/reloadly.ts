import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Reloadly (auth and Airtime API) answering as its documentation says (UPSTREAMS.md): OAuth2
 * client credentials with an audience, Bearer tokens that can be expired (401 TOKEN_EXPIRED), the
 * versioned Accept header, operator auto-detection, asynchronous top-ups with a unique
 * `customIdentifier`, status by transaction id, reports by `customIdentifier`, the account balance,
 * and the documented error codes. Controls let a test expire tokens, hang, lose an answer, or
 * rate-limit.
 */
interface Topup {
  transactionId: number;
  createdAt: number;
  customIdentifier: string;
  number: string;
  amount: number;
  status: 'PROCESSING' | 'SUCCESSFUL' | 'REFUNDED' | 'FAILED';
}

export class FakeReloadly {
  private server!: Server;
  url = '';
  balance = 500;
  readonly topups: Topup[] = [];
  readonly requests: Array<{ method: string; path: string; body: unknown; authorization?: string; accept?: string }> = [];
  tokensIssued = 0;
  private readonly validTokens = new Set<string>();
  hangNext = 0;
  loseAnswerNext = 0;
  rateLimitNext = 0;
  private nextId = 90001;

  constructor(
    private readonly client: { id: string; secret: string },
    private readonly now: () => number = Date.now,
  ) {}

  get authUrl(): string {
    return `${this.url}/oauth/token`;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** A top-up placed on the account by someone else (not through us): for reconciliation tests. */
  stray(customIdentifier: string): void {
    this.topups.push({ transactionId: this.nextId++, createdAt: this.now(), customIdentifier, number: '40744999999', amount: 5, status: 'SUCCESSFUL' });
  }

  /** Every token issued so far stops working (401 TOKEN_EXPIRED). */
  expireTokens(): void {
    this.validTokens.clear();
  }

  /** The operator finishes the top-ups in PROCESSING: by the number's last digits, 991 refunded, else successful. */
  settle(): void {
    for (const t of this.topups.filter((x) => x.status === 'PROCESSING')) {
      t.status = t.number.endsWith('991') ? 'REFUNDED' : 'SUCCESSFUL';
      if (t.status === 'REFUNDED') this.balance += t.amount;
    }
  }

  private send(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  private error(response: ServerResponse, status: number, errorCode: string, message: string, path: string): void {
    this.send(response, status, { timeStamp: new Date().toISOString(), message, path, errorCode, infoLink: null, details: [] });
  }

  private view(t: Topup) {
    return {
      transactionId: t.transactionId,
      status: t.status,
      operatorTransactionId: t.status === 'SUCCESSFUL' ? `RLD-OP-${t.transactionId}` : null,
      customIdentifier: t.customIdentifier,
      recipientPhone: t.number,
      operatorId: 535,
      operatorName: 'Orange Romania',
      requestedAmount: t.amount,
      requestedAmountCurrencyCode: 'EUR',
      deliveredAmount: t.amount,
      deliveredAmountCurrencyCode: 'EUR',
      discount: 0,
      transactionDate: new Date(t.createdAt).toISOString().replace('T', ' ').slice(0, 19),
      balanceInfo: { oldBalance: this.balance + t.amount, newBalance: this.balance, cost: t.amount, currencyCode: 'EUR', currencyName: 'Euro', updatedAt: '2026-11-22 10:00:00' },
    };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
    const url = new URL(request.url ?? '/', 'http://fake');
    const path = url.pathname;
    this.requests.push({ method: request.method ?? 'GET', path: `${path}${url.search}`, body, authorization: request.headers.authorization, accept: request.headers.accept });

    if (request.method === 'POST' && path === '/oauth/token') {
      if (body?.client_id !== this.client.id || body?.client_secret !== this.client.secret || body?.grant_type !== 'client_credentials') {
        return this.error(response, 401, 'INVALID_CREDENTIALS', 'Invalid client credentials', path);
      }
      if (body.audience !== this.url) return this.error(response, 400, 'INVALID_AUDIENCE', 'Unknown audience', path);
      const token = `tok_${++this.tokensIssued}`;
      this.validTokens.add(token);
      return this.send(response, 200, { access_token: token, scope: 'send-topups', expires_in: 5184000, token_type: 'Bearer' });
    }
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!bearer) return this.error(response, 401, 'INVALID_TOKEN', 'Missing token', path);
    if (!this.validTokens.has(bearer)) return this.error(response, 401, 'TOKEN_EXPIRED', 'The token has expired', path);
    if (request.headers.accept !== 'application/com.reloadly.topups-v1+json') return this.error(response, 406, 'INVALID_ACCEPT', 'Accept header required', path);
    if (this.hangNext > 0) {
      this.hangNext--;
      return;
    }
    if (this.rateLimitNext > 0) {
      this.rateLimitNext--;
      return this.error(response, 429, 'RATE_LIMIT_REACHED', 'Too many requests', path);
    }

    if (request.method === 'GET' && path === '/operators/countries/RO') {
      const operator = (id: number, name: string, more: object) => ({ id, operatorId: id, name, bundle: false, data: false, pin: false, senderCurrencyCode: 'EUR', destinationCurrencyCode: 'EUR', country: { isoName: 'RO', name: 'Romania' }, ...more });
      return this.send(response, 200, [
        operator(535, 'Orange Romania', { supportsLocalAmounts: true, denominationType: 'RANGE', minAmount: 5, maxAmount: 50, localMinAmount: 5, localMaxAmount: 50, fixedAmounts: [], localFixedAmounts: [] }),
        operator(536, 'Vodafone Romania', { supportsLocalAmounts: true, denominationType: 'FIXED', fixedAmounts: [5, 10, 15], localFixedAmounts: [5, 10, 15] }),
        operator(537, 'Telekom Romania', { supportsLocalAmounts: false, denominationType: 'RANGE', minAmount: 5, maxAmount: 50, localMinAmount: null, localMaxAmount: null }),
      ]);
    }
    const detect = /^\/operators\/auto-detect\/phone\/(\d+)\/countries\/RO$/.exec(path);
    if (request.method === 'GET' && detect) {
      return this.send(response, 200, {
        id: 535, operatorId: 535, name: 'Orange Romania', bundle: false, data: false, pin: false, supportsLocalAmounts: true,
        denominationType: 'RANGE', senderCurrencyCode: 'EUR', destinationCurrencyCode: 'EUR', minAmount: 5, maxAmount: 50,
        localMinAmount: 5, localMaxAmount: 50, fixedAmounts: [], localFixedAmounts: [], country: { isoName: 'RO', name: 'Romania' },
      });
    }
    if (request.method === 'POST' && path === '/topups-async') return this.topUp(body ?? {}, request, response, path);
    const status = /^\/topups\/(\d+)\/status$/.exec(path);
    if (request.method === 'GET' && status) {
      const t = this.topups.find((x) => x.transactionId === Number(status[1]));
      return t ? this.send(response, 200, this.view(t)) : this.error(response, 404, 'TRANSACTION_NOT_FOUND', 'Not found', path);
    }
    if (request.method === 'GET' && path === '/topups/reports/transactions') {
      const q = url.searchParams;
      const at = (name: string) => (q.get(name) === null ? undefined : Date.parse(`${q.get(name)!.replace(' ', 'T')}Z`));
      const [from, to] = [at('startDate'), at('endDate')];
      const found = this.topups.filter(
        (t) =>
          (q.get('customIdentifier') === null || t.customIdentifier === q.get('customIdentifier')) &&
          (from === undefined || t.createdAt >= from) &&
          (to === undefined || t.createdAt <= to),
      );
      const size = Number(q.get('size') ?? 200);
      const page = Number(q.get('page') ?? 1);
      return this.send(response, 200, { content: found.slice((page - 1) * size, page * size).map((t) => this.view(t)), totalElements: found.length, size, number: page - 1 });
    }
    if (request.method === 'GET' && path === '/accounts/balance') {
      return this.send(response, 200, { balance: this.balance, currencyCode: 'EUR', currencyName: 'Euro', updatedAt: '2026-11-22 10:00:00' });
    }
    return this.error(response, 404, 'NOT_FOUND', 'Not found', path);
  }

  private topUp(b: Record<string, unknown>, request: IncomingMessage, response: ServerResponse, path: string): void {
    const phone = b.recipientPhone as { countryCode?: unknown; number?: unknown } | undefined;
    if (phone?.countryCode !== 'RO' || typeof phone.number !== 'string' || !/^40\d{9}$/.test(phone.number)) {
      return this.error(response, 400, 'INVALID_RECIPIENT_PHONE', 'Invalid recipient phone', path);
    }
    if (b.operatorId !== 535 || b.useLocalAmount !== true || typeof b.amount !== 'number') return this.error(response, 400, 'INVALID_AMOUNT_FOR_OPERATOR', 'Invalid amount', path);
    if (b.amount < 5 || b.amount > 50) return this.error(response, 400, 'INVALID_AMOUNT_FOR_OPERATOR', 'Invalid amount for operator', path);
    if (typeof b.customIdentifier !== 'string') return this.error(response, 400, 'BAD_REQUEST', 'customIdentifier required', path);
    if (this.topups.some((t) => t.customIdentifier === b.customIdentifier)) {
      return this.error(response, 409, 'DUPLICATE_CUSTOM_IDENTIFIER', `customIdentifier ${b.customIdentifier} has already been used`, path);
    }
    if (b.amount > this.balance) return this.error(response, 400, 'INSUFFICIENT_BALANCE', 'Insufficient balance', path);
    this.balance -= b.amount;
    const topup: Topup = { transactionId: this.nextId++, createdAt: this.now(), customIdentifier: b.customIdentifier, number: phone.number, amount: b.amount, status: 'PROCESSING' };
    this.topups.push(topup);
    if (this.loseAnswerNext > 0) {
      this.loseAnswerNext--;
      request.socket.destroy();
      return;
    }
    this.send(response, 200, { transactionId: topup.transactionId });
  }
}
