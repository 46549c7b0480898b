import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { problemBody, type ProblemCode } from './problem.js';

/** What node's HTTP parser refused, by its error code. */
function codeOf(error: Error & { code?: string }): ProblemCode {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'headers_too_large';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request_timeout';
  return 'malformed_request';
}

const DETAIL: Partial<Record<ProblemCode, string>> = {
  headers_too_large: 'The request headers are larger than the server accepts.',
  request_timeout: 'The request did not arrive in time; send it again, whole.',
  malformed_request: 'The request is not well-formed HTTP.',
};

/**
 * Answers an error node's HTTP parser raised before any route ran (oversized headers, malformed
 * requests, a request that took too long): a problem+json body with a request id, then the connection
 * is closed. A socket that can no longer be written to is just destroyed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const code = codeOf(error);
  const requestId = `req_${randomUUID().replace(/-/g, '')}`;
  const problem = problemBody(code, DETAIL[code] ?? 'The request was refused.', requestId);
  const body = JSON.stringify(problem);
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}\r\n` +
      `Content-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}
