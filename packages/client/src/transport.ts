import { TopupApiError } from './errors.js';

export interface TransportOptions {
  readonly apiKey: string;
  readonly baseUrl: string;
  /** Retries after the first try (network errors, 409 idempotency_key_in_use, 429, 5xx). Default 3. */
  readonly maxRetries?: number;
  /** Per try, in milliseconds, answer body included. Default 30 000. */
  readonly timeoutMs?: number;
  /** Another fetch (a proxy agent, a test double); the platform's by default. */
  readonly fetch?: typeof fetch;
}

export interface Call {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly body?: unknown;
  readonly idempotencyKey?: string;
  /** Whether sending it twice is harmless (reads, checks, quotes, deletions, or a POST under an idempotency key). */
  readonly repeatable: boolean;
  readonly accept?: string;
  /** A longer deadline per try than the client's (a whole CSV export). */
  readonly timeoutMs?: number;
}

/** What came back: the answer's status and headers, and its whole body as text. */
export interface Answered {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 20_000;
/** The service holds a running request's key for up to 10 s: a 409 is worth waiting at least this long. */
const IN_USE_DELAY_MS = 2_000;

/** Exponential back-off with full jitter: a random wait up to 0.5 s, 1 s, 2 s, … (20 s at most). */
export const backoffMs = (attempt: number, random: () => number = Math.random): number =>
  Math.floor(random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt));

/**
 * Whether an error may be retried. A repeatable call: on no answer, 409 `idempotency_key_in_use`, 429
 * and any 5xx. Any other call only where the service provably did nothing: 429 (refused before it ran)
 * and 503 (shed before it ran, or the database away: every change is one transaction).
 */
export function retryable(error: TopupApiError, repeatable: boolean): boolean {
  if (error.status === 429 || error.status === 503) return true;
  if (!repeatable) return false;
  return error.status === 0 || error.status >= 500 || error.code === 'idempotency_key_in_use';
}

/** How long to wait before the next try: the service's Retry-After when it gave one, else the back-off. */
function delayBefore(error: TopupApiError, attempt: number): number {
  if (error.retryAfter !== undefined) return Math.min(error.retryAfter * 1000, 60_000) + backoffMs(0);
  if (error.code === 'idempotency_key_in_use') return IN_USE_DELAY_MS + backoffMs(attempt);
  return backoffMs(attempt);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends calls with the key and a deadline per try (body included), and retries as `retryable` allows, always with the same idempotency key. */
export class Transport {
  private readonly baseUrl: string;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: TransportOptions) {
    if (!options.apiKey) throw new TypeError('TopupClient: apiKey is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.maxRetries = options.maxRetries ?? 3;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  async send(call: Call): Promise<Answered> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(call);
      } catch (error) {
        if (!(error instanceof TopupApiError) || attempt >= this.maxRetries || !retryable(error, call.repeatable)) throw error;
        await sleep(delayBefore(error, attempt));
      }
    }
  }

  async json<T>(call: Call): Promise<T> {
    const answer = await this.send(call);
    return (answer.text === '' ? undefined : JSON.parse(answer.text)) as T;
  }

  private async once(call: Call): Promise<Answered> {
    const url = new URL(`${this.baseUrl}${call.path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { 'x-authorization': this.options.apiKey, accept: call.accept ?? 'application/json' };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
    const timeoutMs = call.timeoutMs ?? this.timeoutMs;
    try {
      // The deadline covers the body too: an answer that stops halfway is no answer, and is retried as one.
      const response = await this.fetch(url, {
        method: call.method,
        headers,
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw await TopupApiError.fromResponse(response);
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      if (error instanceof TopupApiError) throw error;
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      const message = timedOut ? `No whole answer within ${timeoutMs} ms` : `Could not reach ${this.baseUrl}: ${error instanceof Error ? error.message : String(error)}`;
      throw new TopupApiError(0, timedOut ? 'timeout' : 'network_error', message, undefined);
    }
  }
}

/**
 * A random UUID for an idempotency key. `crypto.randomUUID` exists only on secure origins in browsers
 * (HTTPS or localhost); elsewhere one is made from `getRandomValues`.
 */
export function randomKey(): string {
  if (typeof globalThis.crypto.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
