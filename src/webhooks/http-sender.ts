import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { SendResult, WebhookSender } from '../app/deliver-webhooks.js';

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/**
 * POSTs with node's own client so that the connection goes to the address that was checked: the
 * lookup is answered with it instead of asking DNS again. Redirects are answers like any other
 * (node does not follow them), and the whole exchange is bounded by the timeout.
 */
export const sendWebhook: WebhookSender = ({ url, address, headers, body, timeoutMs }) =>
  new Promise<SendResult>((resolve) => {
    const started = performance.now();
    const lookup: LookupFunction = (_host, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ ...address }]);
      else callback(null, address.address, address.family);
    };
    const client = url.protocol === 'https:' ? https : http;
    let settled = false;
    const done = (result: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, latencyMs: performance.now() - started });
    };
    const request = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup,
      agent: agents[url.protocol as 'http:' | 'https:'],
      signal: AbortSignal.timeout(timeoutMs),
    });
    request.on('response', (response) => {
      const retryAfter = response.headers['retry-after'];
      done({ statusCode: response.statusCode, ...(retryAfter ? { retryAfter: String(retryAfter) } : {}) });
      response.resume();
    });
    request.on('error', (error) => done({ error: error.name === 'AbortError' || error.name === 'TimeoutError' ? `timeout after ${timeoutMs} ms` : error.message }));
    request.end(body);
  });
