/**
 * The closed set of codes a broken rule is reported with. `http/problem.ts` maps each (and the few
 * codes of the transport itself, such as `invalid_json`) to a status; nothing else may invent a code.
 */
export type ErrorCode =
  | 'validation_failed'
  | 'invalid_query'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'wrong_environment'
  | 'invalid_session'
  | 'insufficient_funds'
  | 'not_found'
  | 'order_settled'
  | 'order_in_progress'
  | 'insufficient_scope'
  | 'webhook_exists'
  | 'idempotency_key_in_use'
  | 'invalid_recharge'
  | 'idempotency_key_reused'
  | 'unknown_webhook'
  | 'rate_unavailable'
  | 'unavailable';

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
