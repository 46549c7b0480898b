import { TopupApiError } from './errors.js';

export interface TransportOptions {
  readonly apiKey: string;
  readonly baseUrl: string;
  /** Retries after the first try (network errors, 409 idempotency_key_in_use, 429, 5xx). Default 3. */
  readonly maxRetries?: number;
  /** Per try, in milliseconds. Default 30 000. */
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
  /** Whether sending it twice is harmless (reads, checks, quotes, or a POST under an idempotency key). */
  readonly repeatable: boolean;
  readonly accept?: string;
}

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 20_000;

/** Exponential back-off with full jitter (AWS's "full jitter"): a random wait up to 0.5 s, 1 s, 2 s, … */
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends calls with the key, a deadline per try, and retries as `retryable` allows, always with the same idempotency key. */
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

  async send(call: Call): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(call);
      } catch (error) {
        if (!(error instanceof TopupApiError) || attempt >= this.maxRetries || !retryable(error, call.repeatable)) throw error;
        const wait = error.retryAfter !== undefined ? error.retryAfter * 1000 : backoffMs(attempt);
        await sleep(wait);
      }
    }
  }

  async json<T>(call: Call): Promise<T> {
    const response = await this.send(call);
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  private async once(call: Call): Promise<Response> {
    const url = new URL(`${this.baseUrl}${call.path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { 'x-authorization': this.options.apiKey, accept: call.accept ?? 'application/json' };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
    let response: Response;
    try {
      response = await this.fetch(url, {
        method: call.method,
        headers,
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      const message = timedOut ? `No answer within ${this.timeoutMs} ms` : `Could not reach ${this.baseUrl}: ${error instanceof Error ? error.message : String(error)}`;
      throw new TopupApiError(0, timedOut ? 'timeout' : 'network_error', message, undefined);
    }
    if (!response.ok) throw await TopupApiError.fromResponse(response);
    return response;
  }
}
