import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl } from '../../src/domain/address-policy.js';
import { decideDelivery, MAX_WEBHOOK_ATTEMPTS, parseRetryAfter, WEBHOOK_RETRY_DELAYS_MS } from '../../src/domain/webhook-schedule.js';
import { legacySignature, signedHeaders, standardSignature } from '../../src/webhooks/signing.js';

describe('delivery decisions', () => {
  it.each([200, 201, 204, 299])('%i is delivered', (statusCode) => expect(decideDelivery({ statusCode }, 1, 0)).toEqual({ outcome: 'delivered' }));
  it('410 disables the endpoint', () => expect(decideDelivery({ statusCode: 410 }, 1, 0)).toEqual({ outcome: 'disable' }));
  it.each([undefined, 301, 302, 400, 404, 429, 500, 503])('%s is retried on the schedule', (statusCode) => {
    expect(decideDelivery({ statusCode }, 1, 0)).toEqual({ outcome: 'retry', delayMs: 5_000 });
  });

  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then fails', () => {
    const hours = [5 / 3600, 5 / 60, 0.5, 2, 5, 10, 14, 20, 24];
    hours.forEach((h, i) => expect(decideDelivery({ statusCode: 500 }, i + 1, 0)).toEqual({ outcome: 'retry', delayMs: Math.round(h * 3_600_000) }));
    expect(WEBHOOK_RETRY_DELAYS_MS).toHaveLength(9);
    expect(decideDelivery({ statusCode: 500 }, MAX_WEBHOOK_ATTEMPTS, 0)).toEqual({ outcome: 'fail' });
  });

  it('jitters by at most 10 %', () => {
    expect(decideDelivery({ statusCode: 500 }, 2, 1)).toEqual({ outcome: 'retry', delayMs: 330_000 });
    expect(decideDelivery({ statusCode: 500 }, 2, -1)).toEqual({ outcome: 'retry', delayMs: 270_000 });
    expect(decideDelivery({ statusCode: 500 }, 2, 7)).toEqual({ outcome: 'retry', delayMs: 330_000 });
  });

  it('honours a longer Retry-After, capped at a day', () => {
    expect(decideDelivery({ statusCode: 503, retryAfterMs: 60_000 }, 1, 0)).toEqual({ outcome: 'retry', delayMs: 60_000 });
    expect(decideDelivery({ statusCode: 503, retryAfterMs: 10 * 86_400_000 }, 1, 0)).toEqual({ outcome: 'retry', delayMs: 86_400_000 });
  });

  it('reads Retry-After in seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('signatures', () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const body = '{"type":"recharge.succeeded","data":{"n":1}}';

  it('signs exactly as the Standard Webhooks library, which verifies it', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = signedHeaders([secret], 'msg_1', now, body);
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg_1', new Date(now * 1000), body));
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('1', '2'), headers)).toThrow();
  });

  it('signs with both secrets during a rotation, so a receiver holding either one verifies', () => {
    const old = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const now = Math.floor(Date.now() / 1000);
    const headers = signedHeaders([secret, old], 'msg_2', now, body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(old).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['x-signature']).toBe(legacySignature(secret, body));
  });

  it('matches a hand-computed HMAC of "{id}.{timestamp}.{body}"', () => {
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`msg_1.1700000000.${body}`).digest('base64');
    expect(standardSignature(secret, 'msg_1', 1_700_000_000, body)).toBe(`v1,${expected}`);
  });

  it('keys the legacy X-Signature with the secret string as issued', () => {
    expect(legacySignature(secret, body)).toBe(createHmac('sha256', secret).update(body).digest('hex'));
    expect(legacySignature(secret, body)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('webhook URL shape', () => {
  it.each([
    ['https://hooks.example.com/x', false, true],
    ['http://hooks.example.com/x', false, false],
    ['http://hooks.example.com/x', true, true],
    ['https://a:b@hooks.example.com/x', true, false],
    ['javascript:alert(1)', true, false],
    [`https://hooks.example.com/${'x'.repeat(2100)}`, false, false],
  ])('%s (private allowed: %s) is accepted: %s', (url, allowPrivate, ok) => {
    expect(checkWebhookUrl(url, allowPrivate).ok).toBe(ok);
  });
});
