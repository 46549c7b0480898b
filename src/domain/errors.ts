/**
 * The closed set of error codes the service answers with. `http/problem.ts` maps each to a status;
 * nothing else may invent a code.
 */
export type ErrorCode =
  | 'validation_failed'
  | 'invalid_json'
  | 'invalid_query'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'wrong_environment'
  | 'insufficient_funds'
  | 'not_found'
  | 'idempotency_key_in_use'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'invalid_recharge'
  | 'idempotency_key_reused'
  | 'unknown_webhook'
  | 'rate_limited'
  | 'rate_unavailable'
  | 'unavailable'
  | 'internal_error';

/** One problem with one field (or one entry of a batch), as listed in a problem body's `errors`. */
export interface FieldProblem {
  readonly arrayPosition?: number;
  readonly field: string;
  readonly code: string;
  readonly message: string;
}

/** A broken rule: expected, reported to the caller with a stable code, never logged as a fault. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: readonly FieldProblem[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}
