import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** Standard Webhooks `webhook-signature`: v1,base64(HMAC-SHA256(base64-decoded secret, "{id}.{timestamp}.{body}")). */
export function standardSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  return new Webhook(secret).sign(id, new Date(timestampSeconds * 1000), body);
}

/** Legacy `X-Signature`: hex HMAC-SHA256 keyed with the secret string exactly as issued, over the raw body. */
export function legacySignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * The headers of one delivery attempt. With several secrets (during a rotation's overlap),
 * `webhook-signature` carries one `v1,` signature per secret, space-separated, as Standard Webhooks
 * allows; the legacy `X-Signature` uses the current secret.
 */
export function signedHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  const [secret] = secrets as [string, ...string[]];
  return {
    'content-type': 'application/json',
    'user-agent': 'topup-webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => standardSignature(s, id, timestampSeconds, body)).join(' '),
    'x-signature': legacySignature(secret, body),
  };
}
