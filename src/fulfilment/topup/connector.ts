import { lookupFailure, type NotFound, type UpstreamAnswer, type UpstreamBalance, type UpstreamConnector, type UpstreamTransaction } from '../../app/upstream.js';
import { fromJsonNumber, parseDecimal } from '../../domain/money.js';
import type { Operator } from '../../domain/operators.js';
import type { Order } from '../../domain/order.js';
import type { UpstreamAttempt } from '../../domain/upstream-attempt.js';
import { parseRetryAfter } from '../../domain/webhook-schedule.js';
import { httpCall, type HttpOutcome } from '../http-call.js';

/**
 * A provider with this service's own interface: the seed's provider, or another deployment of this
 * service (a reseller instance over a wholesale one). Every attempt is placed with `Idempotency-Key` =
 * the attempt's reference and `passthrough.document_id` = our order id, so sending an attempt again
 * can never order twice, and an attempt whose answer was lost is found again by its document id.
 */
export interface TopupUpstreamSettings {
  /** Base URL, without a trailing slash. */
  readonly url: string;
  readonly key: string;
}

interface RechargeRecord {
  readonly recharge_uuid: string;
  readonly recharge_status: string;
  readonly amount?: number;
  readonly created_at?: string;
  readonly failure_reason?: string | null;
  readonly operator_reference?: string | null;
  readonly passthrough?: { readonly attempt?: unknown } | null;
}

/** Upstream failures about the number itself: another upstream would fail it too. */
const NUMBER_FAILURES = new Set(['operator_declined', 'invalid_subscriber']);

const problemCode = (body: unknown): string => {
  const b = body as { code?: unknown; errors?: Array<{ code?: unknown }> } | undefined;
  const entry = b?.errors?.find((e) => typeof e.code === 'string')?.code;
  return String(entry ?? b?.code ?? 'unknown');
};

/** What any answer we cannot use as a result means, by status: refused before anything, or unknown. */
function unexpected(outcome: HttpOutcome, what: string, now: number): UpstreamAnswer {
  if (outcome.kind === 'not_sent') return { kind: 'retry', reason: `upstream_unreachable: ${outcome.reason}`.slice(0, 200) };
  if (outcome.kind === 'no_answer') return { kind: 'unknown', reason: `no_answer: ${what}: ${outcome.reason}`.slice(0, 200) };
  const { status, body, headers } = outcome;
  const code = problemCode(body);
  // This interface answers 429 and 503 (load shed) before changing anything; 401/403/404 refuse the
  // request outright. Any other 5xx may come after the order was written: unknown.
  if (status === 429 || status === 503) return { kind: 'retry', reason: `upstream_busy: ${what}: HTTP ${status} ${code}`, retryAfterMs: parseRetryAfter(headers.get('retry-after') ?? undefined, now) };
  if (status === 401 || status === 403 || status === 404) return { kind: 'retry', reason: `upstream_refused: ${what}: HTTP ${status} ${code}` };
  return { kind: 'unknown', reason: `upstream_error: ${what}: HTTP ${status} ${code}` };
}

function answerOfRecord(record: RechargeRecord): UpstreamAnswer {
  switch (record.recharge_status) {
    case 'SUCCESS':
      return { kind: 'success', upstreamId: record.recharge_uuid, operatorReference: record.operator_reference ?? record.recharge_uuid };
    case 'FAILED': {
      const reason = record.failure_reason ?? 'failed';
      return { kind: 'failed', reason: `upstream_failed: ${reason}`, final: NUMBER_FAILURES.has(reason), upstreamId: record.recharge_uuid };
    }
    default:
      return { kind: 'pending', upstreamId: record.recharge_uuid, reason: `upstream ${record.recharge_status}` };
  }
}

export function createTopupConnector(settings: TopupUpstreamSettings, options: { operators: readonly Operator[] }): UpstreamConnector {
  const headers = { 'x-authorization': settings.key };
  const call = (method: 'GET' | 'POST', path: string, signal: AbortSignal, extra: { body?: unknown; headers?: Record<string, string> } = {}) =>
    httpCall(`${settings.url}${path}`, { method, headers: { ...headers, ...extra.headers }, body: extra.body, signal });

  async function send(attempt: UpstreamAttempt, order: Order, signal: AbortSignal): Promise<UpstreamAnswer> {
    // The interface requires a recent check of every number before it is recharged.
    const check = await call('POST', '/v1/check-number', signal, { body: { phone_number: order.msisdn } });
    if (check.kind !== 'answer' || check.status !== 200) {
      // No recharge was sent: whatever happened to the check, nothing was performed.
      const answer = unexpected(check, 'check-number', Date.now());
      return answer.kind === 'unknown' ? { kind: 'retry', reason: answer.reason } : answer;
    }
    const checked = check.body as { isValid?: boolean; code?: string; message?: string };
    if (checked.isValid !== true) return { kind: 'failed', reason: `upstream_number_refused: ${checked.code ?? checked.message ?? 'not valid'}`, final: true };

    const placed = await call('POST', '/v1/recharge', signal, {
      headers: { 'idempotency-key': attempt.reference },
      body: {
        recharges: [{ phone_number: order.msisdn, amount: Number(order.amount) / 100 }],
        fast_recharge: order.fast,
        passthrough: { document_id: order.id, attempt: attempt.reference },
      },
    });
    if (placed.kind !== 'answer') return unexpected(placed, 'recharge', Date.now());
    const body = placed.body as { currency?: string; orderSummary?: Array<{ rechargeId?: string; deduction?: string; status?: string }> };
    if (placed.status === 201 || placed.status === 200) {
      const entry = body.orderSummary?.[0];
      if (!entry?.rechargeId) return { kind: 'unknown', reason: 'upstream_error: recharge answered without a rechargeId' };
      const cost = entry.deduction && body.currency ? parseDecimal(entry.deduction, 2) : undefined;
      return { kind: 'pending', upstreamId: entry.rechargeId, ...(cost !== undefined && body.currency ? { cost: { amount: cost, currency: body.currency } } : {}) };
    }
    const code = problemCode(placed.body);
    // Refused as a whole, before any order was written upstream (one transaction there).
    if (placed.status === 402) return { kind: 'retry', reason: `upstream_insufficient_funds: ${code}`, outOfFloat: true };
    if (placed.status === 422 && code === 'idempotency_key_reused') {
      return { kind: 'unknown', reason: 'upstream_idempotency_conflict: the reference was used with another request; looked up' };
    }
    if (placed.status === 409) return { kind: 'unknown', reason: 'upstream_in_flight: the same attempt is still running upstream' };
    if (placed.status === 400 || placed.status === 422) return { kind: 'failed', reason: `upstream_refused: ${code}` };
    return unexpected(placed, 'recharge', Date.now());
  }

  async function lookup(attempt: UpstreamAttempt, order: Order, signal: AbortSignal): Promise<UpstreamAnswer | NotFound> {
    if (attempt.upstreamId !== null) {
      const found = await call('GET', `/v1/account/recharges/${encodeURIComponent(attempt.upstreamId)}`, signal);
      if (found.kind === 'answer' && found.status === 200) return answerOfRecord(found.body as RechargeRecord);
      if (found.kind === 'answer' && found.status === 404) return { kind: 'not_found' };
      return lookupFailure(unexpected(found, 'lookup', Date.now()));
    }
    // The upstream's id was never recorded (a crash between its answer and our commit): by document id.
    const listed = await call('GET', `/v1/account/recharges?document_id=${encodeURIComponent(order.id)}&limit=100`, signal);
    if (listed.kind !== 'answer' || listed.status !== 200) return lookupFailure(unexpected(listed, 'lookup', Date.now()));
    const records = ((listed.body as { data?: RechargeRecord[] }).data ?? []).filter((r) => r.passthrough?.attempt === attempt.reference);
    return records[0] ? answerOfRecord(records[0]) : { kind: 'not_found' };
  }

  async function balance(signal: AbortSignal): Promise<UpstreamBalance> {
    const answer = await call('GET', '/v1/account/balance', signal);
    const body = answer.kind === 'answer' ? (answer.body as { balance?: unknown; currency?: unknown }) : undefined;
    if (answer.kind !== 'answer' || answer.status !== 200 || typeof body?.balance !== 'number' || typeof body.currency !== 'string') {
      throw new Error(`the topup upstream's balance could not be read (${answer.kind === 'answer' ? `HTTP ${answer.status}` : answer.reason})`);
    }
    return { available: fromJsonNumber(body.balance), currency: body.currency };
  }

  /** Every order of our account at the upstream created in the period, page by page (keyset). */
  async function* transactions(period: { from: number; to: number }, signal: AbortSignal): AsyncIterable<UpstreamTransaction> {
    const window = `from=${new Date(period.from).toISOString()}&to=${new Date(period.to).toISOString()}`;
    let after: string | undefined;
    for (;;) {
      const page = await call('GET', `/v1/account/recharges?${window}&limit=100${after ? `&after=${after}` : ''}`, signal);
      if (page.kind !== 'answer' || page.status !== 200) {
        throw new Error(`the topup upstream's orders could not be listed (${page.kind === 'answer' ? `HTTP ${page.status}` : page.reason})`);
      }
      const records = (page.body as { data?: RechargeRecord[] }).data ?? [];
      for (const r of records) {
        const reference = typeof r.passthrough?.attempt === 'string' ? r.passthrough.attempt : null;
        const state = r.recharge_status === 'SUCCESS' ? 'succeeded' : r.recharge_status === 'FAILED' ? 'failed' : 'pending';
        yield { upstreamId: r.recharge_uuid, reference, state, amount: fromJsonNumber(r.amount ?? 0), createdAt: Date.parse(r.created_at ?? '') };
      }
      if (records.length < 100) return;
      after = records.at(-1)!.recharge_uuid;
    }
  }

  return {
    name: 'topup',
    serves: (order) => options.operators.includes(order.operator),
    send,
    lookup,
    balance,
    transactions,
  };
}
