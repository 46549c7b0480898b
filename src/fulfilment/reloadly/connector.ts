import { lookupFailure, type NotFound, type UpstreamAnswer, type UpstreamBalance, type UpstreamConnector, type UpstreamTransaction } from '../../app/upstream.js';
import { formatDecimal, fromJsonNumber } from '../../domain/money.js';
import type { Order } from '../../domain/order.js';
import type { UpstreamAttempt } from '../../domain/upstream-attempt.js';
import { httpCall, type HttpOutcome } from '../http-call.js';
import type { ProductCatalogue } from '../../app/catalogue.js';
import { productFor, type UpstreamProduct } from '../../domain/upstream-product.js';
import { answerOfTopup, deliverable, productsOf, reportDate, transactionOf, type DetectedOperator, type ReloadlyTopup } from './mapping.js';
import { ReloadlyToken } from './token.js';

export interface ReloadlySettings {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly authUrl: string;
  readonly baseUrl: string;
}

const ACCEPT = 'application/com.reloadly.topups-v1+json';

const errorCode = (body: unknown): string => String((body as { errorCode?: unknown } | undefined)?.errorCode ?? 'unknown');

/** What an answer we cannot use means: refused before anything, or unknown. */
function unexpected(outcome: HttpOutcome, what: string): UpstreamAnswer {
  if (outcome.kind === 'not_sent') return { kind: 'retry', reason: `reloadly_unreachable: ${outcome.reason}`.slice(0, 200) };
  if (outcome.kind === 'no_answer') return { kind: 'unknown', reason: `no_answer: reloadly ${what}: ${outcome.reason}`.slice(0, 200) };
  const code = errorCode(outcome.body);
  if (outcome.status === 429) return { kind: 'retry', reason: `reloadly_rate_limited: ${what}: ${code}` };
  if (outcome.status === 401 || outcome.status === 403) {
    return { kind: 'retry', reason: `reloadly_refused: ${what}: HTTP ${outcome.status} ${code} (check RELOADLY_CLIENT_ID and RELOADLY_CLIENT_SECRET)` };
  }
  return { kind: 'unknown', reason: `reloadly_error: ${what}: HTTP ${outcome.status} ${code}` };
}

/**
 * Reloadly's Airtime API: OAuth2 client credentials (a cached token, renewed before it expires and
 * when refused as expired), the operator detected from the number, asynchronous top-ups in EUR
 * (`useLocalAmount`) with our attempt reference as `customIdentifier` (unique at Reloadly), and
 * lookups by transaction id or by `customIdentifier`.
 */
export function createReloadlyConnector(settings: ReloadlySettings, catalogue: ProductCatalogue): UpstreamConnector {
  const token = new ReloadlyToken(settings);

  /** One call with the cached token; a refusal of the token renews it once and tries again. */
  async function call(method: 'GET' | 'POST', path: string, signal: AbortSignal, body?: unknown): Promise<HttpOutcome> {
    for (let tries = 0; ; tries++) {
      const bearer = await token.get();
      if (typeof bearer !== 'string') return bearer;
      const answer = await httpCall(`${settings.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${bearer}`, accept: ACCEPT }, body, signal });
      // A 401 refuses the request before anything is done (the token is checked first), so a retry is safe.
      if (answer.kind === 'answer' && answer.status === 401 && tries === 0 && ['TOKEN_EXPIRED', 'INVALID_TOKEN'].includes(errorCode(answer.body))) {
        token.forget(bearer);
        continue;
      }
      return answer;
    }
  }

  async function byCustomIdentifier(reference: string, signal: AbortSignal): Promise<UpstreamAnswer | NotFound> {
    const found = await call('GET', `/topups/reports/transactions?customIdentifier=${encodeURIComponent(reference)}`, signal);
    if (found.kind === 'answer' && found.status === 200) {
      const [topup] = ((found.body as { content?: ReloadlyTopup[] }).content ?? []).filter((t) => t.customIdentifier === reference);
      return topup ? answerOfTopup(topup) : { kind: 'not_found' };
    }
    return lookupFailure(unexpected(found, 'lookup'));
  }

  async function send(attempt: UpstreamAttempt, order: Order, signal: AbortSignal): Promise<UpstreamAnswer> {
    const detected = await call('GET', `/operators/auto-detect/phone/${order.msisdn}/countries/RO?suggestedAmountsMap=false`, signal);
    if (detected.kind !== 'answer' || detected.status !== 200) {
      if (detected.kind === 'answer' && errorCode(detected.body) === 'COULD_NOT_AUTO_DETECT_OPERATOR') {
        return { kind: 'failed', reason: 'reloadly: COULD_NOT_AUTO_DETECT_OPERATOR' };
      }
      // Nothing was ordered yet: whatever happened to the detection, nothing was performed.
      const answer = unexpected(detected, 'operator detection');
      return answer.kind === 'unknown' ? { kind: 'retry', reason: answer.reason } : answer;
    }
    const operator = detected.body as DetectedOperator;
    if (!deliverable(operator, order.amount)) {
      return { kind: 'failed', reason: `reloadly_amount_not_available: ${formatDecimal(order.amount)} EUR is not sold for ${operator.name ?? 'this operator'}` };
    }
    const placed = await call('POST', '/topups-async', signal, {
      operatorId: operator.operatorId ?? operator.id,
      amount: Number(formatDecimal(order.amount)),
      useLocalAmount: true,
      customIdentifier: attempt.reference,
      recipientPhone: { countryCode: 'RO', number: order.msisdn },
    });
    if (placed.kind !== 'answer') return unexpected(placed, 'top-up');
    if (placed.status === 200 || placed.status === 201 || placed.status === 202) {
      const id = (placed.body as { transactionId?: unknown }).transactionId;
      return id === undefined ? { kind: 'unknown', reason: 'reloadly: accepted without a transactionId' } : { kind: 'pending', upstreamId: String(id) };
    }
    const code = errorCode(placed.body);
    switch (code) {
      case 'INSUFFICIENT_BALANCE':
        return { kind: 'retry', reason: 'reloadly_insufficient_balance', outOfFloat: true };
      case 'INVALID_RECIPIENT_PHONE':
        return { kind: 'failed', reason: 'reloadly: INVALID_RECIPIENT_PHONE', final: true };
      case 'INVALID_AMOUNT_FOR_OPERATOR':
        return { kind: 'failed', reason: 'reloadly: INVALID_AMOUNT_FOR_OPERATOR' };
      case 'PHONE_RECENTLY_RECHARGED':
        return { kind: 'retry', reason: 'reloadly: PHONE_RECENTLY_RECHARGED', retryAfterMs: 120_000 };
      case 'OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE':
      case 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT':
        return { kind: 'retry', reason: `reloadly: ${code}` };
    }
    // Reloadly's code for a reused customIdentifier is not documented: a 409, or a 4xx that names it,
    // is one, and the transaction is found by it.
    if (placed.status === 409 || (placed.status >= 400 && placed.status < 500 && /custom[\s_-]*identifier/i.test(JSON.stringify(placed.body)))) {
      const known = await byCustomIdentifier(attempt.reference, signal);
      return known.kind === 'not_found' ? { kind: 'unknown', reason: `reloadly: ${code} for a customIdentifier not found` } : known;
    }
    if (placed.status >= 400 && placed.status < 500 && placed.status !== 401 && placed.status !== 403 && placed.status !== 429) {
      return { kind: 'failed', reason: `reloadly_refused: HTTP ${placed.status} ${code}` };
    }
    return unexpected(placed, 'top-up');
  }

  async function lookup(attempt: UpstreamAttempt, _order: Order, signal: AbortSignal): Promise<UpstreamAnswer | NotFound> {
    if (attempt.upstreamId === null) return byCustomIdentifier(attempt.reference, signal);
    const found = await call('GET', `/topups/${encodeURIComponent(attempt.upstreamId)}/status`, signal);
    if (found.kind === 'answer' && found.status === 200) return answerOfTopup(found.body as ReloadlyTopup);
    if (found.kind === 'answer' && found.status === 404) return { kind: 'not_found' };
    return lookupFailure(unexpected(found, 'lookup'));
  }

  async function balance(signal: AbortSignal): Promise<UpstreamBalance> {
    const answer = await call('GET', '/accounts/balance', signal);
    const body = answer.kind === 'answer' && answer.status === 200 ? (answer.body as { balance?: unknown; currencyCode?: unknown }) : undefined;
    if (typeof body?.balance !== 'number' || typeof body.currencyCode !== 'string') {
      throw new Error(`Reloadly's balance could not be read (${answer.kind === 'answer' ? `HTTP ${answer.status}` : answer.reason})`);
    }
    return { available: fromJsonNumber(body.balance), currency: body.currencyCode };
  }

  /** Every top-up of the period from the transaction reports, 200 a page. */
  async function* transactions(period: { from: number; to: number }, signal: AbortSignal): AsyncIterable<UpstreamTransaction> {
    const window = `startDate=${encodeURIComponent(reportDate(period.from))}&endDate=${encodeURIComponent(reportDate(period.to))}`;
    for (let page = 1; ; page++) {
      const answer = await call('GET', `/topups/reports/transactions?${window}&page=${page}&size=200`, signal);
      if (answer.kind !== 'answer' || answer.status !== 200) {
        throw new Error(`Reloadly's transactions could not be listed (${answer.kind === 'answer' ? `HTTP ${answer.status}` : answer.reason})`);
      }
      const content = (answer.body as { content?: ReloadlyTopup[] }).content ?? [];
      for (const t of content) yield transactionOf(t);
      if (content.length < 200) return;
    }
  }

  /** What Romania's operators sell through Reloadly in EUR (`GET /operators/countries/RO`). */
  async function products(signal: AbortSignal): Promise<UpstreamProduct[]> {
    const answer = await call('GET', '/operators/countries/RO?includeBundles=false&includeData=false&includePin=false&suggestedAmounts=false&suggestedAmountsMap=false', signal);
    if (answer.kind !== 'answer' || answer.status !== 200 || !Array.isArray(answer.body)) {
      throw new Error(`Reloadly's operators could not be read (${answer.kind === 'answer' ? `HTTP ${answer.status}` : answer.reason})`);
    }
    return (answer.body as DetectedOperator[]).flatMap(productsOf);
  }

  // The catalogue says what can be sold; the operator of each top-up is still detected from its
  // number at send time (Reloadly knows ported numbers).
  const serves = (order: Order) => productFor(catalogue.of('reloadly'), order.operator, order.amount) !== undefined;

  return { name: 'reloadly', serves, send, lookup, balance, transactions, products };
}
