/**
 * One JSON request to an upstream over fetch, and what became of it in the terms fulfilment needs: an
 * answer (any HTTP status), or a transport failure that says whether the request can have reached the
 * upstream. A connection that was never made (refused, no such host) provably sent nothing; a timeout
 * or a connection dropped after connecting may have delivered the request.
 */
export type HttpOutcome =
  | { readonly kind: 'answer'; readonly status: number; readonly headers: Headers; readonly body: unknown }
  | { readonly kind: 'not_sent'; readonly reason: string }
  | { readonly kind: 'no_answer'; readonly reason: string };

/** Errors of a connection that was never established: nothing reached the upstream. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export async function httpCall(
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown; signal: AbortSignal },
): Promise<HttpOutcome> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
      redirect: 'error',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code ?? (error as Error).name;
    if (cause?.code !== undefined && NOT_CONNECTED.has(cause.code)) return { kind: 'not_sent', reason: `${code}: ${cause.message ?? ''}`.trim() };
    return { kind: 'no_answer', reason: `${code}: ${cause?.message ?? (error as Error).message}` };
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    // The status came but the body was cut: what it said is unknown.
    return { kind: 'no_answer', reason: `body cut off after HTTP ${response.status}: ${(error as Error).message}` };
  }
  let body: unknown = undefined;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { kind: 'answer', status: response.status, headers: response.headers, body };
}

