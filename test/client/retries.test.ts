import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TopupApiError, TopupClient } from '@topup/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// How the client retries, against a server that answers as scripted: the service itself cannot be
// made to answer 429, 500 or nothing on demand. What it answers is the service's problem+json.

type Scripted = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang';

describe('@topup/client retries', () => {
  let server: Server;
  let url = '';
  let script: Scripted[] = [];
  const seen: { method: string; path: string; headers: IncomingHttpHeaders; at: number }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ method: request.method!, path: request.url!, headers: request.headers, at: Date.now() });
      const next = script.shift() ?? { status: 200, body: { balance: 1, currency: 'RON' } };
      if (next === 'hang') return;
      const body = next.status >= 400 ? { type: '/problems/x', status: next.status, code: (next.body as { code?: string })?.code ?? 'unavailable', detail: 'scripted', requestId: 'req_scripted' } : next.body;
      response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const fresh = (steps: Scripted[]) => {
    script = steps;
    seen.length = 0;
  };

  it('retries 5xx and 429 (after Retry-After), and gives the answer', async () => {
    fresh([{ status: 500 }, { status: 429, headers: { 'retry-after': '1' } }]);
    const client = new TopupClient({ apiKey: 'tk_test_x', baseUrl: url });
    expect(await client.account.balance()).toEqual({ balance: 1, currency: 'RON' });
    expect(seen).toHaveLength(3);
    expect(seen[2]!.at - seen[1]!.at).toBeGreaterThanOrEqual(1000);
  });

  it('keeps one Idempotency-Key across retries of a recharge (409 in use, 503, no answer), and puts it on the final error', async () => {
    fresh([{ status: 409, body: { code: 'idempotency_key_in_use' } }, { status: 503 }, 'hang', { status: 502 }]);
    const client = new TopupClient({ apiKey: 'tk_test_x', baseUrl: url, maxRetries: 3, timeoutMs: 300 });
    const error = (await client.recharge({ recharges: [{ phone_number: '40744123456', amount: 5 }] }).catch((e: unknown) => e)) as TopupApiError;
    expect(error).toBeInstanceOf(TopupApiError);
    expect(error).toMatchObject({ status: 502 });
    expect(seen).toHaveLength(4);
    const keys = new Set(seen.map((s) => s.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect(error.idempotencyKey).toBe([...keys][0]);
    // A 409 is waited out at least 2 s: the service holds a running request's key for up to 10 s.
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(2000);
  }, 30_000);

  it('answers a timeout as TopupApiError timeout, and does not retry a call that would create twice on 500', async () => {
    fresh(['hang']);
    const impatient = new TopupClient({ apiKey: 'tk_test_x', baseUrl: url, maxRetries: 0, timeoutMs: 200 });
    expect(await impatient.account.get().catch((e: unknown) => e)).toMatchObject({ status: 0, code: 'timeout' });
    fresh([{ status: 500 }]);
    const client = new TopupClient({ apiKey: 'tk_test_x', baseUrl: url });
    expect(await client.keys.create().catch((e: unknown) => e)).toMatchObject({ status: 500 });
    expect(seen).toHaveLength(1);
    fresh([{ status: 503 }, { status: 201, body: { id: 'key_x', key: 'tk_test_y', scope: 'full' } }]);
    expect(await client.keys.create()).toMatchObject({ id: 'key_x' });
    expect(seen).toHaveLength(2);
  });
});
