import type { Order } from '../domain/order.js';
import { isOpenAttempt, type UpstreamAttempt } from '../domain/upstream-attempt.js';
import { attemptsOf } from '../store/upstream-attempts.repository.js';
import type { Deps } from './deps.js';
import { deferUnsent, failUnsent, recordAnswer, startAttempt, type AnswerOutcome } from './fulfil-orders.js';
import type { NotFound, UpstreamAnswer, UpstreamConnector } from './upstream.js';

export interface FulfilmentRoute {
  /** The upstreams in priority order: the first that serves an order takes it. */
  readonly upstreams: readonly UpstreamConnector[];
  /** Longest one upstream call may take before its outcome counts as unknown. */
  readonly timeoutMs: number;
}

/**
 * Takes one claimed order as far as the upstreams let it go now:
 *
 * - An attempt still open (sent, answer unknown or pending) is looked up by its reference, never sent
 *   under a new one; if the upstream has no such transaction, the same attempt is sent again (the
 *   upstream de-duplicates on the reference, so this cannot top up twice).
 * - Otherwise the upstreams that serve the order are tried in priority order, each under a new
 *   attempt, moving on only when one has provably not topped the phone up (a refusal, or a failure its
 *   provider documents as not charged) — never after a timeout.
 */
export async function fulfilOrder(deps: Deps, order: Order, workerId: string, route: FulfilmentRoute): Promise<AnswerOutcome> {
  // The catalogue upstreams' serves() read the catalogue in memory: fresh within a minute.
  await deps.catalogue.current();
  const attempts = await attemptsOf(deps.store.db, order.id);
  const open = attempts.find(isOpenAttempt);
  const serving = route.upstreams.filter((u) => u.serves(order));
  let candidates = serving;
  if (open) {
    const upstream = route.upstreams.find((u) => u.name === open.connector);
    const answer: UpstreamAnswer = upstream
      ? await lookUpThenResend(deps, upstream, open, order, route.timeoutMs)
      : { kind: 'unknown', reason: `connector_not_configured: ${open.connector} is no longer in TOPUP_UPSTREAM; it cannot be asked` };
    if (!upstream) deps.log.error({ order: order.id, connector: open.connector }, 'an open attempt belongs to a connector no longer configured');
    // After a provable non-performance, only the upstreams after this one are left for now.
    candidates = serving.slice(serving.findIndex((u) => u.name === open.connector) + 1);
    const round = attempts.filter((a) => a.connector === open.connector).length;
    const outcome = await recordAnswer(deps, order, workerId, open, answer, candidates.length === 0, { keepsFloat: upstream?.balance !== undefined, round });
    if (outcome.kind !== 'next') return outcome;
  }
  if (candidates.length === 0) {
    // A catalogue upstream with no catalogue yet cannot say whether it serves the order: it waits for
    // `topup upstream products sync` rather than failing.
    const unsynced = route.upstreams.filter((u) => u.products && deps.catalogue.of(u.name).length === 0).map((u) => u.name);
    if (unsynced.length > 0) return deferUnsent(deps, order, workerId, `no_catalogue: run topup upstream products sync (${unsynced.join(', ')})`);
    // Nothing was sent, and nothing can be: failing the order and refunding it is safe.
    return failUnsent(deps, order, workerId, 'no_upstream: no configured upstream serves this operator and amount');
  }
  let number = (attempts.at(-1)?.number ?? 0) + 1;
  for (const [index, upstream] of candidates.entries()) {
    const attempt = await startAttempt(deps, order, workerId, upstream.name, number++);
    if (!attempt) return { kind: 'lost' };
    const answer = await callWithDeadline(deps, upstream, order, route.timeoutMs, (signal) => upstream.send(attempt, order, signal));
    const round = attempts.filter((a) => a.connector === upstream.name).length + 1;
    const outcome = await recordAnswer(deps, order, workerId, attempt, answer, index === candidates.length - 1, { keepsFloat: upstream.balance !== undefined, round });
    if (outcome.kind !== 'next') return outcome;
  }
  throw new Error('unreachable: the last candidate never answers "next"');
}

/**
 * An open attempt is looked up; if the upstream has no such transaction, the same attempt is sent
 * again. A refusal of that resend proves nothing about the first send (a lagging report, a request
 * still in flight from a stalled worker, "recently recharged"): the attempt stays open, unknown, and
 * only a transaction's own final state, or a person, ends it.
 */
async function lookUpThenResend(deps: Deps, upstream: UpstreamConnector, attempt: UpstreamAttempt, order: Order, timeoutMs: number): Promise<UpstreamAnswer> {
  const found = await callWithDeadline(deps, upstream, order, timeoutMs, (signal) => upstream.lookup(attempt, order, signal));
  if (found.kind !== 'not_found') return found;
  const resent = await callWithDeadline(deps, upstream, order, timeoutMs, (signal) => upstream.send(attempt, order, signal));
  if (resent.kind === 'success' || resent.kind === 'pending' || resent.kind === 'unknown') return resent;
  return { kind: 'unknown', reason: `resend_refused: ${resent.reason}`.slice(0, 200) };
}

/**
 * One upstream call under the deadline: the connector gets a signal that aborts its request, and an
 * answer that does not come in time (a connector ignoring the signal) is an unknown outcome anyway. A
 * throw is a fault — a bug, or a transport failure the connector did not classify — logged as an error,
 * and the outcome is unknown: the request may have left.
 */
async function callWithDeadline<T extends UpstreamAnswer | NotFound>(
  deps: Deps,
  upstream: UpstreamConnector,
  order: Order,
  timeoutMs: number,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T | { kind: 'unknown'; reason: string }> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<{ kind: 'unknown'; reason: string }>((resolve) => {
    timer = setTimeout(() => {
      // Settled first, so that the connector's own rejection on the abort is not taken for a fault.
      resolve({ kind: 'unknown', reason: `no_answer: ${upstream.name} did not answer within ${timeoutMs} ms` });
      controller.abort(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  const startedAt = performance.now();
  let answer: T | { kind: 'unknown'; reason: string };
  try {
    answer = await Promise.race([call(controller.signal), deadline]);
  } catch (error) {
    deps.log.error({ err: error, order: order.id, connector: upstream.name }, 'operator connector threw; the outcome is unknown');
    answer = { kind: 'unknown', reason: `connector_error: ${(error as Error).message}`.slice(0, 200) };
  } finally {
    clearTimeout(timer);
  }
  deps.telemetry.operatorCall(upstream.name, answer.kind, (performance.now() - startedAt) / 1000);
  return answer;
}
