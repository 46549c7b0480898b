/**
 * When to try an order again, by the number of attempts made so far. Decisions are values; the worker
 * performs them.
 */
export const OPERATOR_RETRY_DELAYS_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 1_800_000];
export const MAX_OPERATOR_ATTEMPTS = OPERATOR_RETRY_DELAYS_MS.length + 1;

export type RetryDecision = { readonly outcome: 'retry'; readonly delayMs: number } | { readonly outcome: 'fail' };

export function decideRetry(attemptsMade: number, retryAfterMs?: number): RetryDecision {
  if (attemptsMade >= MAX_OPERATOR_ATTEMPTS) return { outcome: 'fail' };
  const scheduled = OPERATOR_RETRY_DELAYS_MS[Math.max(0, attemptsMade - 1)] ?? OPERATOR_RETRY_DELAYS_MS.at(-1)!;
  return { outcome: 'retry', delayMs: Math.max(scheduled, retryAfterMs ?? 0) };
}

/**
 * After an attempt whose outcome we do not know (no answer in time, a dropped connection): never a
 * failure, whatever the count. The order stays open and is looked up on the same schedule, then every
 * 30 minutes, until the operator gives a final answer (each attempt asks for the status first).
 */
export function decideLookup(attemptsMade: number): RetryDecision {
  return { outcome: 'retry', delayMs: OPERATOR_RETRY_DELAYS_MS[Math.max(0, attemptsMade - 1)] ?? OPERATOR_RETRY_DELAYS_MS.at(-1)! };
}
