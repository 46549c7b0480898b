/** One problem with one field, or one entry of a batch (`arrayPosition`), as the problem body lists it. */
export interface FieldProblem {
  readonly arrayPosition?: number;
  readonly field: string;
  readonly code: string;
  readonly message: string;
}

/**
 * An error answer of the API (RFC 9457 problem+json), or a request that got no answer at all
 * (`status` 0, `code` `network_error` or `timeout`).
 */
export class TopupApiError extends Error {
  override readonly name = 'TopupApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly errors: readonly FieldProblem[] = [],
    /** Seconds to wait, from `Retry-After`, when the answer had one. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  /**
   * The Idempotency-Key a failed recharge was sent under (the one the client made, when none was
   * given): retry with it, and the service answers the first try's result instead of ordering again.
   */
  idempotencyKey?: string;

  /** Builds the error from an answer that is not 2xx, whatever its body holds. */
  static async fromResponse(response: Response): Promise<TopupApiError> {
    const text = await response.text().catch(() => '');
    let body: { code?: unknown; detail?: unknown; requestId?: unknown; errors?: unknown } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // Not JSON (a proxy's error page, say): the status says what there is to say.
    }
    const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
    return new TopupApiError(
      response.status,
      typeof body.code === 'string' ? body.code : `http_${response.status}`,
      typeof body.detail === 'string' ? body.detail : `The service answered ${response.status} ${response.statusText}`.trim(),
      typeof body.requestId === 'string' ? body.requestId : (response.headers.get('x-request-id') ?? undefined),
      Array.isArray(body.errors) ? (body.errors as FieldProblem[]) : [],
      retryAfter,
    );
  }
}

/** `Retry-After` in seconds: a number of seconds, or an HTTP date (RFC 9110). */
function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}
