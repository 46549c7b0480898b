import type { ProductCatalogue } from '../../app/catalogue.js';
import { lookupFailure, type NotFound, type UpstreamAnswer, type UpstreamBalance, type UpstreamConnector, type UpstreamTransaction } from '../../app/upstream.js';
import { formatDecimal, fromJsonNumber } from '../../domain/money.js';
import type { Order } from '../../domain/order.js';
import type { UpstreamAttempt } from '../../domain/upstream-attempt.js';
import { productFor, type UpstreamProduct } from '../../domain/upstream-product.js';
import { httpCall, type HttpOutcome } from '../http-call.js';
import { answerOf, DTONE_ERRORS, errorCodes, toProduct, transactionOf, type DtoneProduct, type DtoneTransaction } from './mapping.js';

export interface DtoneSettings {
  readonly baseUrl: string;
  readonly key: string;
  readonly secret: string;
  /** Where DT One posts a transaction's final state; a callback only triggers a lookup. */
  readonly callbackUrl?: string;
}

/** What an answer we cannot use as a transaction means: refused before anything, or unknown. */
function unexpected(outcome: HttpOutcome, what: string): UpstreamAnswer {
  if (outcome.kind === 'not_sent') return { kind: 'retry', reason: `dtone_unreachable: ${outcome.reason}`.slice(0, 200) };
  if (outcome.kind === 'no_answer') return { kind: 'unknown', reason: `no_answer: dtone ${what}: ${outcome.reason}`.slice(0, 200) };
  const codes = errorCodes(outcome.body);
  const said = `HTTP ${outcome.status}${codes.length ? ` ${codes.join(',')}` : ''}`;
  if (outcome.status === 429 || codes.includes(DTONE_ERRORS.rateLimited)) return { kind: 'retry', reason: `dtone_rate_limited: ${what}: ${said}` };
  if (codes.includes(DTONE_ERRORS.retryLater)) return { kind: 'retry', reason: `dtone_retry_later: ${what}: ${said}` };
  if (outcome.status === 401 || outcome.status === 403) return { kind: 'retry', reason: `dtone_refused: ${what}: ${said} (check DTONE_API_KEY and DTONE_API_SECRET)` };
  return { kind: 'unknown', reason: `dtone_error: ${what}: ${said}` };
}

/**
 * DT One DVS: asynchronous transactions with `auto_confirm`, our attempt reference as `external_id`
 * (unique at DT One: a second create with it is refused, and then looked up), the product chosen
 * from the synced catalogue, and lookups by id or by `external_id`.
 */
export function createDtoneConnector(settings: DtoneSettings, catalogue: ProductCatalogue): UpstreamConnector {
  const authorization = `Basic ${Buffer.from(`${settings.key}:${settings.secret}`).toString('base64')}`;
  const call = (method: 'GET' | 'POST', path: string, signal: AbortSignal, body?: unknown) =>
    httpCall(`${settings.baseUrl}${path}`, { method, headers: { authorization }, body, signal });
  const productOf = (order: Order) => productFor(catalogue.of('dtone'), order.operator, order.amount);

  function requestBody(attempt: UpstreamAttempt, order: Order, product: UpstreamProduct) {
    const amount = { unit_type: 'CURRENCY', unit: 'EUR', amount: Number(formatDecimal(order.amount)) };
    return {
      external_id: attempt.reference,
      product_id: Number(product.productId),
      auto_confirm: true,
      credit_party_identifier: { mobile_number: `+${order.msisdn}` },
      ...(settings.callbackUrl ? { callback_url: settings.callbackUrl } : {}),
      ...(product.kind === 'ranged'
        ? product.side === 'source'
          ? { calculation_mode: 'SOURCE_AMOUNT', source: amount }
          : { calculation_mode: 'DESTINATION_AMOUNT', destination: amount }
        : {}),
    };
  }

  async function byExternalId(reference: string, signal: AbortSignal): Promise<UpstreamAnswer | NotFound> {
    const found = await call('GET', `/transactions?external_id=${encodeURIComponent(reference)}`, signal);
    if (found.kind === 'answer' && found.status === 200 && Array.isArray(found.body)) {
      const [transaction] = found.body as DtoneTransaction[];
      return transaction ? answerOf(transaction) : { kind: 'not_found' };
    }
    if (found.kind === 'answer' && errorCodes(found.body).includes(DTONE_ERRORS.notFound)) return { kind: 'not_found' };
    return lookupFailure(unexpected(found, 'lookup'));
  }

  async function send(attempt: UpstreamAttempt, order: Order, signal: AbortSignal): Promise<UpstreamAnswer> {
    const product = productOf(order);
    if (!product) return { kind: 'failed', reason: `dtone_no_product: no product for ${formatDecimal(order.amount)} EUR to ${order.operator} (run topup upstream products sync)` };
    const created = await call('POST', '/async/transactions', signal, requestBody(attempt, order, product));
    if (created.kind === 'answer' && (created.status === 201 || created.status === 200)) return answerOf(created.body as DtoneTransaction);
    if (created.kind !== 'answer') return unexpected(created, 'create');
    const codes = errorCodes(created.body);
    // Created before (its answer was lost): what DT One did with it is found by the reference.
    if (codes.includes(DTONE_ERRORS.externalIdUsed)) {
      const known = await byExternalId(attempt.reference, signal);
      return known.kind === 'not_found' ? { kind: 'unknown', reason: 'dtone: external_id used, yet not found' } : known;
    }
    if (codes.includes(DTONE_ERRORS.insufficientBalance)) return { kind: 'retry', reason: 'dtone_insufficient_balance', outOfFloat: true };
    if (codes.includes(DTONE_ERRORS.invalidMobileNumber)) return { kind: 'failed', reason: 'dtone: invalid mobile number', final: true };
    if (codes.includes(DTONE_ERRORS.amountOutOfRange)) return { kind: 'failed', reason: 'dtone: amount out of range for the product' };
    if (codes.includes(DTONE_ERRORS.notFound)) return { kind: 'failed', reason: 'dtone: product not found (run topup upstream products sync)' };
    // Any other 4xx refuses the request as a whole: nothing was created.
    if (created.status >= 400 && created.status < 500 && created.status !== 429 && created.status !== 401 && created.status !== 403) {
      return { kind: 'failed', reason: `dtone_refused: HTTP ${created.status} ${codes.join(',')}` };
    }
    return unexpected(created, 'create');
  }

  async function lookup(attempt: UpstreamAttempt, _order: Order, signal: AbortSignal): Promise<UpstreamAnswer | NotFound> {
    if (attempt.upstreamId === null) return byExternalId(attempt.reference, signal);
    const found = await call('GET', `/transactions/${encodeURIComponent(attempt.upstreamId)}`, signal);
    if (found.kind === 'answer' && found.status === 200) return answerOf(found.body as DtoneTransaction);
    if (found.kind === 'answer' && found.status === 404) return { kind: 'not_found' };
    return lookupFailure(unexpected(found, 'lookup'));
  }

  async function balance(signal: AbortSignal): Promise<UpstreamBalance> {
    const answer = await call('GET', '/balances', signal);
    const balances = answer.kind === 'answer' && answer.status === 200 && Array.isArray(answer.body) ? (answer.body as Array<{ unit?: string; available?: number }>) : undefined;
    const chosen = balances?.find((b) => b.unit === 'EUR') ?? balances?.[0];
    if (!chosen?.unit) throw new Error(`DT One's balance could not be read (${answer.kind === 'answer' ? `HTTP ${answer.status}` : answer.reason})`);
    return { available: fromJsonNumber(chosen.available ?? 0), currency: chosen.unit };
  }

  /** Romanian mobile recharges, fixed and ranged, every page (`X-Next-Page`). */
  async function products(signal: AbortSignal): Promise<UpstreamProduct[]> {
    const found: UpstreamProduct[] = [];
    for (const type of ['FIXED_VALUE_RECHARGE', 'RANGED_VALUE_RECHARGE']) {
      for (let page: string | null = '1'; page; ) {
        const answer = await call('GET', `/products?country_iso_code=ROU&service_id=1&type=${type}&page=${page}&per_page=100`, signal);
        if (answer.kind !== 'answer' || answer.status !== 200 || !Array.isArray(answer.body)) {
          throw new Error(`DT One's products could not be read (${answer.kind === 'answer' ? `HTTP ${answer.status}` : answer.reason})`);
        }
        for (const p of answer.body as DtoneProduct[]) {
          const product = toProduct(p);
          if (product) found.push(product);
        }
        page = answer.headers.get('x-next-page') || null;
      }
    }
    return found;
  }

  /**
   * Our transactions created in the period. The gathered documents give `GET /transactions` paging
   * (`page`, `per_page`, `X-Next-Page`) but no date filter, so every page is read and filtered here.
   */
  async function* transactions(period: { from: number; to: number }, signal: AbortSignal): AsyncIterable<UpstreamTransaction> {
    for (let page: string | null = '1'; page; ) {
      const answer = await call('GET', `/transactions?page=${page}&per_page=100`, signal);
      if (answer.kind !== 'answer' || answer.status !== 200 || !Array.isArray(answer.body)) {
        throw new Error(`DT One's transactions could not be listed (${answer.kind === 'answer' ? `HTTP ${answer.status}` : answer.reason})`);
      }
      for (const t of answer.body as DtoneTransaction[]) {
        const found = transactionOf(t);
        if (found.createdAt >= period.from && found.createdAt < period.to) yield found;
      }
      page = answer.headers.get('x-next-page') || null;
    }
  }

  return { name: 'dtone', serves: (order) => productOf(order) !== undefined, send, lookup, balance, products, transactions };
}
