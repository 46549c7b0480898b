import type { UpstreamAnswer, UpstreamTransaction } from '../../app/upstream.js';
import { fromJsonNumber } from '../../domain/money.js';
import { operatorNamed } from '../../domain/operators.js';
import type { UpstreamProduct } from '../../domain/upstream-product.js';

// DT One's documents (DVS API v1) turned into our terms: transaction states into answers, products
// into catalogue entries, errors into refusals. UPSTREAMS.md gathers the facts.

type Amount = number | { min?: number; max?: number; increment?: number };
export interface DtoneSide {
  readonly unit_type?: string;
  readonly unit?: string;
  readonly amount?: Amount;
}
export interface DtoneProduct {
  readonly id: number;
  readonly name?: string;
  readonly type?: string;
  readonly operator?: { readonly id?: number; readonly name?: string; readonly country?: { readonly iso_code?: string } };
  readonly source?: DtoneSide;
  readonly destination?: DtoneSide;
}
export interface DtoneTransaction {
  readonly id: number;
  readonly external_id?: string;
  readonly creation_date?: string;
  readonly status?: { readonly id?: number; readonly message?: string; readonly class?: { readonly id?: number; readonly message?: string } };
  readonly operator_reference?: string | null;
  readonly product?: DtoneProduct;
  readonly prices?: { readonly wholesale?: { readonly unit?: string; readonly amount?: number; readonly fee?: number } };
}

const cents = (value: number | undefined) => fromJsonNumber(value ?? 0);

/** A product we can sell: a Romanian recharge with an amount in EUR on one side. */
export function toProduct(p: DtoneProduct): UpstreamProduct | undefined {
  const operator = operatorNamed(p.operator?.name);
  if (!operator || (p.operator?.country?.iso_code ?? 'ROU') !== 'ROU') return undefined;
  const common = { connector: 'dtone', productId: String(p.id), operator, name: p.name ?? `product ${p.id}` };
  const eurSide = (['source', 'destination'] as const).find((side) => p[side]?.unit === 'EUR' && (p[side]?.unit_type ?? 'CURRENCY') === 'CURRENCY');
  if (!eurSide) return undefined;
  const amount = p[eurSide]!.amount;
  if (p.type === 'FIXED_VALUE_RECHARGE' && typeof amount === 'number') return { ...common, side: eurSide, kind: 'fixed', amount: cents(amount) };
  if (p.type === 'RANGED_VALUE_RECHARGE' && typeof amount === 'object' && amount.min !== undefined && amount.max !== undefined) {
    return { ...common, side: eurSide, kind: 'ranged', min: cents(amount.min), max: cents(amount.max), increment: cents(amount.increment ?? 0.01) };
  }
  return undefined;
}

// Status classes (status.class.id): CREATED 1, CONFIRMED 2, REJECTED 3, CANCELLED 4, SUBMITTED 5,
// COMPLETED 7, REVERSED 8, DECLINED 9.
const COMPLETED = 7;
const REVERSED = 8;
const FAILED_CLASSES = new Set([3, 4, 9]);

/** Declines about the number itself: another upstream would be refused too. */
const NUMBER_DECLINES = ['INVALID-CREDIT-PARTY', 'BARRED-CREDIT-PARTY'];

export function answerOf(t: DtoneTransaction): UpstreamAnswer {
  const classId = t.status?.class?.id;
  const message = t.status?.message ?? t.status?.class?.message ?? 'unknown';
  const upstreamId = String(t.id);
  const wholesale = t.prices?.wholesale;
  const cost = wholesale?.unit ? { amount: cents(wholesale.amount) + cents(wholesale.fee), currency: wholesale.unit } : undefined;
  // Reversed follows a completion: the phone was topped up and the money came back later. Never a
  // plain failure (no failover, no refund by itself): a person looks at it.
  if (classId === REVERSED) return { kind: 'unknown', reason: `dtone: REVERSED after completion (${message}); check with DT One and resolve by hand` };
  if (classId === COMPLETED) return { kind: 'success', upstreamId, operatorReference: t.operator_reference ?? upstreamId, ...(cost ? { cost } : {}) };
  if (classId !== undefined && FAILED_CLASSES.has(classId)) {
    // Rejected, cancelled and declined transactions release what they held: nothing was charged.
    if (message.includes('INSUFFICIENT-BALANCE')) return { kind: 'retry', reason: `dtone: ${message}`, outOfFloat: true };
    if (message.includes('OPERATOR-CURRENTLY-UNAVAILABLE')) return { kind: 'retry', reason: `dtone: ${message}` };
    return { kind: 'failed', reason: `dtone: ${message}`, final: NUMBER_DECLINES.some((d) => message.includes(d)), upstreamId };
  }
  return { kind: 'pending', upstreamId, reason: `dtone: ${message}`, ...(cost ? { cost } : {}) };
}

/** A DT One transaction as reconciliation compares it (the amount when its product states one in EUR). */
export function transactionOf(t: DtoneTransaction): UpstreamTransaction {
  const answer = answerOf(t);
  const eur = [t.product?.source, t.product?.destination].find((side) => side?.unit === 'EUR' && typeof side.amount === 'number');
  return {
    upstreamId: String(t.id),
    reference: t.external_id ?? null,
    state: answer.kind === 'success' ? 'succeeded' : answer.kind === 'pending' ? 'pending' : 'failed',
    ...(eur ? { amount: cents(eur.amount as number) } : {}),
    ...(answer.kind === 'success' && answer.cost ? { cost: answer.cost } : {}),
    createdAt: Date.parse(t.creation_date ?? ''),
  };
}

/** DT One error codes (`{"errors": [{"code", "message"}]}`) that matter to us. */
export const DTONE_ERRORS = {
  rateLimited: 1000429,
  amountOutOfRange: 1003002,
  invalidMobileNumber: 1005003,
  insufficientBalance: 1006001,
  externalIdUsed: 1007001,
  notFound: 1008004,
  retryLater: 1009503,
} as const;

export function errorCodes(body: unknown): number[] {
  const errors = (body as { errors?: Array<{ code?: unknown }> } | undefined)?.errors;
  return Array.isArray(errors) ? errors.flatMap((e) => (typeof e.code === 'number' ? [e.code] : [])) : [];
}
