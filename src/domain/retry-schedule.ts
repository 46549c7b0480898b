/**
 * When to try an order again, by the number of attempts made so far. Decisions are values; the worker
 * performs them.
 */
export const OPERATOR_RETRY_DELAYS_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 1_800_000];
export const MAX_OPERATOR_ATTEMPTS = OPERATOR_RETRY_DELAYS_MS.length + 1;

export type RetryDecision = { readonly outcome: 'retry'; readonly delayMs: number } | { readonly outcome: 'fail' };

/** The delay after the n-th refused attempt: the schedule, then its last step. */
const retryDelay = (attemptsMade: number) => OPERATOR_RETRY_DELAYS_MS[Math.max(0, attemptsMade - 1)] ?? OPERATOR_RETRY_DELAYS_MS.at(-1)!;

export function decideRetry(attemptsMade: number, retryAfterMs?: number): RetryDecision {
  if (attemptsMade >= MAX_OPERATOR_ATTEMPTS) return { outcome: 'fail' };
  return { outcome: 'retry', delayMs: Math.max(retryDelay(attemptsMade), retryAfterMs ?? 0) };
}

/**
 * An upstream out of credit (its float) refuses everything until it is topped up: not the order's
 * fault, so the order waits on the same delays, then every 30 minutes, and never fails for it.
 */
export function decideFloatWait(attemptsMade: number): { readonly outcome: 'retry'; readonly delayMs: number } {
  return { outcome: 'retry', delayMs: retryDelay(attemptsMade) };
}

/**
 * When to ask again about an attempt whose outcome we do not know (no answer in time, a dropped
 * connection, a 5xx after sending) or that an upstream is still processing, by how long ago it was
 * sent: every 5 seconds in its first minute, every 30 seconds to 10 minutes, every 2 minutes to an
 * hour, every 10 minutes to 6 hours, then every hour, without end. Never a failure, whatever the
 * count: only the upstream's answer ends it, or a person (`topup orders resolve`) once it has waited
 * past `REVIEW_AFTER_MS`.
 */
export const LOOKUP_SCHEDULE: ReadonlyArray<{ readonly untilAgeMs: number; readonly everyMs: number }> = [
  { untilAgeMs: 60_000, everyMs: 5_000 },
  { untilAgeMs: 600_000, everyMs: 30_000 },
  { untilAgeMs: 3_600_000, everyMs: 120_000 },
  { untilAgeMs: 6 * 3_600_000, everyMs: 600_000 },
];
export const SLOWEST_LOOKUP_MS = 3_600_000;
export const FIRST_LOOKUP_MS = LOOKUP_SCHEDULE[0]!.everyMs;

/** An attempt still unanswered this long after it was sent is listed by `topup orders review`. */
export const REVIEW_AFTER_MS = 48 * 3_600_000;

export function decideLookup(sentAgoMs: number): { readonly outcome: 'retry'; readonly delayMs: number } {
  const step = LOOKUP_SCHEDULE.find((s) => sentAgoMs < s.untilAgeMs);
  return { outcome: 'retry', delayMs: step?.everyMs ?? SLOWEST_LOOKUP_MS };
}
