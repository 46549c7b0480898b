/**
 * What to do after one delivery attempt, decided as a value. DESIGN.md: 2xx delivered; 410 disables the
 * endpoint; anything else (redirects included), a timeout or a network error is retried after 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, with ±10 % jitter and Retry-After honoured, then fails.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  300_000,
  1_800_000,
  7_200_000,
  18_000_000,
  36_000_000,
  50_400_000,
  72_000_000,
  86_400_000,
];
export const MAX_WEBHOOK_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
const MAX_RETRY_AFTER_MS = 86_400_000;

export interface AttemptResult {
  /** Absent when no response came (timeout, refused connection, blocked address). */
  readonly statusCode?: number;
  readonly retryAfterMs?: number;
}

export type DeliveryDecision =
  | { readonly outcome: 'delivered' }
  | { readonly outcome: 'disable' }
  | { readonly outcome: 'retry'; readonly delayMs: number }
  | { readonly outcome: 'fail' };

/**
 * @param attemptsMade attempts so far, this one included
 * @param jitter a number in [-1, 1] (random in production, fixed in tests) scaling the ±10 %
 */
export function decideDelivery(result: AttemptResult, attemptsMade: number, jitter: number): DeliveryDecision {
  const status = result.statusCode;
  if (status !== undefined && status >= 200 && status < 300) return { outcome: 'delivered' };
  if (status === 410) return { outcome: 'disable' };
  if (attemptsMade >= MAX_WEBHOOK_ATTEMPTS) return { outcome: 'fail' };
  const scheduled = WEBHOOK_RETRY_DELAYS_MS[attemptsMade - 1] ?? WEBHOOK_RETRY_DELAYS_MS.at(-1)!;
  const jittered = Math.round(scheduled * (1 + 0.1 * Math.max(-1, Math.min(1, jitter))));
  const asked = Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS);
  return { outcome: 'retry', delayMs: Math.max(jittered, asked) };
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
