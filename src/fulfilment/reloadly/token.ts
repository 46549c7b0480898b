import { httpCall, type HttpOutcome } from '../http-call.js';

/**
 * Reloadly's OAuth2 client-credentials token, cached until a minute before it expires, fetched once
 * for all concurrent callers, and forgotten when Reloadly refuses it as expired or invalid.
 */
export class ReloadlyToken {
  private current: { value: string; expiresAt: number } | undefined;
  private fetching: Promise<string | HttpOutcome> | undefined;

  constructor(private readonly settings: { readonly clientId: string; readonly clientSecret: string; readonly authUrl: string; readonly baseUrl: string }) {}

  /** The token, or — when none could be had — why, as a request that was never sent. */
  async get(): Promise<string | HttpOutcome> {
    if (this.current && Date.now() < this.current.expiresAt) return this.current.value;
    // One fetch serves every caller, so it runs under its own deadline, not the first caller's.
    this.fetching ??= this.fetch(AbortSignal.timeout(10_000)).finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  forget(value: string): void {
    if (this.current?.value === value) this.current = undefined;
  }

  private async fetch(signal: AbortSignal): Promise<string | HttpOutcome> {
    const answer = await httpCall(this.settings.authUrl, {
      method: 'POST',
      headers: {},
      body: { client_id: this.settings.clientId, client_secret: this.settings.clientSecret, grant_type: 'client_credentials', audience: this.settings.baseUrl },
      signal,
    });
    const body = answer.kind === 'answer' ? (answer.body as { access_token?: unknown; expires_in?: unknown }) : undefined;
    if (answer.kind !== 'answer' || answer.status !== 200 || typeof body?.access_token !== 'string') {
      // No top-up request left without a token: to the caller, a request never sent.
      const why = answer.kind === 'answer' ? `HTTP ${answer.status}` : answer.reason;
      return { kind: 'not_sent', reason: `no Reloadly token (${why}; check RELOADLY_CLIENT_ID, RELOADLY_CLIENT_SECRET and RELOADLY_AUTH_URL)` };
    }
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
    this.current = { value: body.access_token, expiresAt: Date.now() + Math.max(0, lifetimeMs - 60_000) };
    return body.access_token;
  }
}
