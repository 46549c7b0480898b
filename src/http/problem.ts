import type { ErrorCode, FieldProblem } from '../domain/errors.js';

/** Refusals of the transport itself, before or around any use case. */
export type TransportErrorCode =
  | 'invalid_json'
  | 'malformed_request'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'payload_too_large'
  | 'headers_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'invalid_admin_token'
  | 'cross_site_request'
  | 'internal_error';

/** A refusal by the transport (a rate limit, say), answered like a broken rule: plainly, with its code. */
export class TransportError extends Error {
  constructor(
    readonly code: TransportErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** Every code a problem body may carry: the rules' codes and the transport's. */
export type ProblemCode = ErrorCode | TransportErrorCode;

/** The one table from error codes to HTTP statuses and titles (RFC 9457 problem details). */
export const PROBLEMS: Readonly<Record<ProblemCode, { status: number; title: string }>> = Object.freeze({
  validation_failed: { status: 400, title: 'The request is not valid' },
  invalid_json: { status: 400, title: 'The body is not valid JSON' },
  invalid_query: { status: 400, title: 'The query string is not valid' },
  malformed_request: { status: 400, title: 'The request is not well-formed HTTP' },
  missing_api_key: { status: 401, title: 'API key missing' },
  invalid_api_key: { status: 401, title: 'API key not valid' },
  wrong_environment: { status: 401, title: 'API key of another environment' },
  insufficient_funds: { status: 402, title: 'Not enough credit' },
  invalid_admin_token: { status: 401, title: 'Admin token missing or not valid' },
  invalid_session: { status: 401, title: 'Dashboard session ended' },
  insufficient_scope: { status: 403, title: 'This API key may not do this' },
  cross_site_request: { status: 403, title: 'Refused: the request did not come from this site' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'This method is not allowed here' },
  request_timeout: { status: 408, title: 'The request took too long to arrive' },
  webhook_exists: { status: 409, title: 'A webhook endpoint with that name exists' },
  order_settled: { status: 409, title: 'The order already has its final status' },
  order_in_progress: { status: 409, title: 'The order is being worked on' },
  idempotency_key_in_use: { status: 409, title: 'A request with this idempotency key is still running' },
  payload_too_large: { status: 413, title: 'The body is too large' },
  unsupported_media_type: { status: 415, title: 'The body must be application/json' },
  headers_too_large: { status: 431, title: 'The request headers are too large' },
  invalid_recharge: { status: 422, title: 'The recharge request cannot be accepted' },
  idempotency_key_reused: { status: 422, title: 'The idempotency key was used with another request' },
  unknown_webhook: { status: 422, title: 'No webhook endpoint with that name' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  rate_unavailable: { status: 503, title: 'No current exchange rate' },
  unavailable: { status: 503, title: 'Service unavailable' },
});

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  requestId: string;
  success: false;
  message: string;
  errors?: readonly FieldProblem[];
}

/** `type` is a relative URI that resolves, on this server, to the description of the code. */
export const problemType = (code: ProblemCode) => `/problems/${code}`;

export function problemBody(code: ProblemCode, detail: string, requestId: string, errors?: readonly FieldProblem[]): ProblemBody {
  const { status, title } = PROBLEMS[code];
  return {
    type: problemType(code),
    title,
    status,
    detail,
    code,
    requestId,
    success: false,
    message: detail,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
}
