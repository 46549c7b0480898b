import { attemptsWithOrders } from '../store/upstream-attempts.repository.js';
import { formatDecimal } from '../domain/money.js';
import type { UpstreamAttempt } from '../domain/upstream-attempt.js';
import type { Deps } from './deps.js';
import type { UpstreamConnector, UpstreamTransaction } from './upstream.js';

export type MismatchKind = 'missing_upstream' | 'status_differs' | 'unknown_upstream_transaction' | 'amount_differs' | 'cost_differs';

export interface Mismatch {
  readonly kind: MismatchKind;
  readonly reference: string | null;
  readonly orderId: string | null;
  readonly upstreamId: string | null;
  /** What we recorded, and what the upstream did, in words. */
  readonly ours: string;
  readonly theirs: string;
}

export interface Reconciliation {
  readonly connector: string;
  readonly from: number;
  readonly to: number;
  readonly ours: number;
  readonly theirs: number;
  readonly mismatches: readonly Mismatch[];
}

/** How far around the period both sides are read, so a transaction stamped a little later still matches. */
const SLACK_MS = 3_600_000;

/**
 * Compares our attempts through one upstream made in [from, to) with the upstream's own transactions,
 * by reference (or by the upstream's id), and lists every difference: a success of ours the upstream
 * does not have, statuses that disagree (ours SUCCESS / theirs failed, ours FAILED or not performed /
 * theirs completed), a transaction of theirs with no attempt of ours, amounts or costs that differ.
 * Attempts still awaiting an answer are not differences: they are being looked up.
 */
export async function reconcile(deps: Deps, upstream: UpstreamConnector, period: { from: number; to: number }): Promise<Reconciliation> {
  if (!upstream.transactions) throw new Error(`the ${upstream.name} connector cannot list its transactions`);
  const wide = { from: period.from - SLACK_MS, to: period.to + SLACK_MS };
  const ours = await attemptsWithOrders(deps.store.db, upstream.name, wide);
  const theirs: UpstreamTransaction[] = [];
  for await (const t of upstream.transactions(wide, AbortSignal.timeout(300_000))) theirs.push(t);

  const byReference = new Map(theirs.filter((t) => t.reference !== null).map((t) => [t.reference!, t]));
  const byId = new Map(theirs.map((t) => [t.upstreamId, t]));
  const matched = new Set<string>();
  const mismatches: Mismatch[] = [];
  const inPeriod = (at: number) => at >= period.from && at < period.to;
  const about = (a: UpstreamAttempt, t: UpstreamTransaction | undefined) => ({ reference: a.reference, orderId: a.orderId, upstreamId: t?.upstreamId ?? a.upstreamId });

  for (const { attempt, amount } of ours) {
    const found = byReference.get(attempt.reference) ?? (attempt.upstreamId === null ? undefined : byId.get(attempt.upstreamId));
    if (found) matched.add(found.upstreamId);
    if (!inPeriod(attempt.createdAt)) continue;
    if (!found) {
      if (attempt.state === 'succeeded') mismatches.push({ kind: 'missing_upstream', ...about(attempt, found), ours: 'succeeded', theirs: 'no such transaction' });
      continue;
    }
    const oursFailed = attempt.state === 'failed' || attempt.state === 'not_performed';
    if ((attempt.state === 'succeeded' && found.state === 'failed') || (oursFailed && found.state !== 'failed')) {
      mismatches.push({ kind: 'status_differs', ...about(attempt, found), ours: attempt.state, theirs: found.state });
    }
    if (found.amount !== undefined && found.amount !== amount) mismatches.push({ kind: 'amount_differs', ...about(attempt, found), ours: `${formatDecimal(amount)} EUR`, theirs: `${formatDecimal(found.amount!)} EUR` });
    if (attempt.cost && found.cost && (attempt.cost.amount !== found.cost.amount || attempt.cost.currency !== found.cost.currency)) {
      mismatches.push({
        kind: 'cost_differs',
        ...about(attempt, found),
        ours: `${formatDecimal(attempt.cost.amount)} ${attempt.cost.currency}`,
        theirs: `${formatDecimal(found.cost.amount)} ${found.cost.currency}`,
      });
    }
  }
  for (const t of theirs) {
    if (!matched.has(t.upstreamId) && inPeriod(t.createdAt)) {
      mismatches.push({ kind: 'unknown_upstream_transaction', reference: t.reference, orderId: null, upstreamId: t.upstreamId, ours: 'no attempt', theirs: t.state });
    }
  }
  return {
    connector: upstream.name,
    ...period,
    ours: ours.filter((o) => inPeriod(o.attempt.createdAt)).length,
    theirs: theirs.filter((t) => inPeriod(t.createdAt)).length,
    mismatches,
  };
}
