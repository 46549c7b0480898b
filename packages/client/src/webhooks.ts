import { Webhook } from 'standardwebhooks';

/** A webhook event as the service sends it (DESIGN.md): its type, when, and what it is about. */
export interface WebhookEvent {
  readonly type: string;
  readonly timestamp: string;
  readonly data: Record<string, unknown>;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/** Header values by lower-case name, from a fetch `Headers` or a Node/Express/Fastify headers object. */
function headerRecord(headers: HeaderSource): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => (out[name.toLowerCase()] = value));
    return out;
  }
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/**
 * Checks a delivery's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) against the endpoint's secret (`whsec_…`) and returns the event. Throws on a bad
 * or missing signature, or a timestamp more than 5 minutes away. Pass the body exactly as received
 * (the raw text or bytes, before any JSON parsing). During a secret rotation either secret verifies.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderSource, secret: string): WebhookEvent {
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  return new Webhook(secret).verify(body, headerRecord(headers)) as WebhookEvent;
}
