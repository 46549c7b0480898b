// The dashboard is a client of the public /v1 API like any other, signed in by its HttpOnly session
// cookie instead of a key: one place sends requests and turns problem+json answers into errors.

/** A problem+json answer (DESIGN.md), as an error to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: readonly { arrayPosition?: number; field: string; code: string; message: string }[] = [],
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/**
 * The key this page signed in with, sent on every request: if another tab signs in with another key
 * (replacing the cookie), this tab's requests are refused instead of acting on the other account.
 */
let signedInKeyId: string | undefined;
export const rememberSignedIn = (keyId: string | undefined): void => {
  signedInKeyId = keyId;
};

/** Told when an answer says the session has ended, so the app can show the sign-in page. */
let onSignedOut: (reason: string) => void = () => {};
export const whenSignedOut = (handler: (reason: string) => void): void => {
  onSignedOut = handler;
};

export interface RequestOptions {
  readonly method?: 'GET' | 'POST' | 'DELETE';
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...(signedInKeyId ? { 'x-dashboard-key': signedInKeyId } : {}), ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      credentials: 'same-origin',
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The service could not be reached. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const problem = (body ?? {}) as { code?: string; detail?: string; errors?: ApiError['errors']; requestId?: string };
    const error = new ApiError(response.status, problem.code ?? 'error', problem.detail ?? `The service answered ${response.status}.`, problem.errors ?? [], problem.requestId);
    if (response.status === 401 && !path.startsWith('/dashboard/session')) onSignedOut(error.message);
    throw error;
  }
  return body as T;
}

/** A query string of the values that are set. */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
