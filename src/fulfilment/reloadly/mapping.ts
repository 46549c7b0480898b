import type { UpstreamAnswer, UpstreamTransaction } from '../../app/upstream.js';
import { fromJsonNumber } from '../../domain/money.js';
import { operatorNamed } from '../../domain/operators.js';
import type { UpstreamProduct } from '../../domain/upstream-product.js';

// Reloadly's documents (Airtime API) turned into our terms. UPSTREAMS.md gathers the facts.

export interface DetectedOperator {
  readonly operatorId?: number;
  readonly id?: number;
  readonly name?: string;
  readonly denominationType?: 'FIXED' | 'RANGE';
  readonly supportsLocalAmounts?: boolean;
  readonly destinationCurrencyCode?: string;
  readonly localMinAmount?: number | null;
  readonly localMaxAmount?: number | null;
  readonly localFixedAmounts?: number[] | null;
}

export interface ReloadlyTopup {
  readonly transactionId?: number | string;
  readonly status?: string;
  readonly requestedAmount?: number;
  readonly requestedAmountCurrencyCode?: string;
  readonly deliveredAmount?: number;
  readonly deliveredAmountCurrencyCode?: string;
  /** "yyyy-MM-dd HH:mm:ss", taken as UTC. */
  readonly transactionDate?: string;
  readonly customIdentifier?: string;
  readonly operatorTransactionId?: string | null;
  readonly balanceInfo?: { readonly cost?: number; readonly currencyCode?: string } | null;
  /** The status endpoint may nest the transaction. */
  readonly transaction?: ReloadlyTopup;
}

const cents = fromJsonNumber;

/**
 * What a Romanian operator sells through Reloadly in EUR (its local currency, `useLocalAmount`): a
 * range to the cent, or its fixed amounts. Operators without local EUR amounts are left out.
 */
export function productsOf(operator: DetectedOperator): UpstreamProduct[] {
  const ours = operatorNamed(operator.name);
  const id = operator.operatorId ?? operator.id;
  if (!ours || id === undefined || !operator.supportsLocalAmounts || operator.destinationCurrencyCode !== 'EUR') return [];
  const common = { connector: 'reloadly', operator: ours, name: operator.name ?? `operator ${id}`, side: 'destination' as const };
  if (operator.denominationType === 'FIXED') {
    return (operator.localFixedAmounts ?? []).map((a) => ({ ...common, productId: `${id}:${a}`, kind: 'fixed' as const, amount: cents(a) }));
  }
  const { localMinAmount: min, localMaxAmount: max } = operator;
  return typeof min === 'number' && typeof max === 'number' ? [{ ...common, productId: String(id), kind: 'ranged', min: cents(min), max: cents(max), increment: 1n }] : [];
}

/** Whether the operator sells exactly `amount` euro cents in its own currency, EUR. */
export function deliverable(operator: DetectedOperator, amount: bigint): boolean {
  if (!operator.supportsLocalAmounts || operator.destinationCurrencyCode !== 'EUR') return false;
  if (operator.denominationType === 'FIXED') return (operator.localFixedAmounts ?? []).some((a) => cents(a) === amount);
  const min = operator.localMinAmount;
  const max = operator.localMaxAmount;
  return typeof min === 'number' && typeof max === 'number' && amount >= cents(min) && amount <= cents(max);
}

/**
 * A top-up's state: SUCCESSFUL, PROCESSING, REFUNDED (the operator failed; the money came back) or
 * FAILED (not debited; Reloadly asks to wait 30 minutes before trying again).
 */
export function answerOfTopup(found: ReloadlyTopup): UpstreamAnswer {
  const t = { ...found.transaction, ...found, ...(found.transaction ? { status: found.status ?? found.transaction.status } : {}) };
  const upstreamId = t.transactionId === undefined ? undefined : String(t.transactionId);
  const cost = t.balanceInfo?.cost !== undefined && t.balanceInfo.currencyCode ? { amount: cents(t.balanceInfo.cost), currency: t.balanceInfo.currencyCode } : undefined;
  switch (t.status) {
    case 'SUCCESSFUL':
      return { kind: 'success', ...(upstreamId ? { upstreamId } : {}), operatorReference: t.operatorTransactionId ?? upstreamId, ...(cost ? { cost } : {}) };
    case 'REFUNDED':
      return { kind: 'failed', reason: 'reloadly: REFUNDED', ...(upstreamId ? { upstreamId } : {}) };
    case 'FAILED':
      return { kind: 'retry', reason: 'reloadly: FAILED', retryAfterMs: 30 * 60_000 };
    default:
      return { kind: 'pending', ...(upstreamId ? { upstreamId } : {}), reason: `reloadly: ${t.status ?? 'PROCESSING'}` };
  }
}

/** A Reloadly report entry as reconciliation compares it. */
export function transactionOf(t: ReloadlyTopup): UpstreamTransaction {
  const answer = answerOfTopup(t);
  const eur = t.deliveredAmountCurrencyCode === 'EUR' ? t.deliveredAmount : t.requestedAmountCurrencyCode === 'EUR' ? t.requestedAmount : undefined;
  return {
    upstreamId: String(t.transactionId),
    reference: t.customIdentifier ?? null,
    state: answer.kind === 'success' ? 'succeeded' : answer.kind === 'pending' ? 'pending' : 'failed',
    ...(eur === undefined ? {} : { amount: cents(eur) }),
    ...(answer.kind === 'success' && answer.cost ? { cost: answer.cost } : {}),
    createdAt: Date.parse(`${(t.transactionDate ?? '').replace(' ', 'T')}Z`),
  };
}

/** Reloadly's report dates: "yyyy-MM-dd HH:mm:ss" (UTC). */
export const reportDate = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
