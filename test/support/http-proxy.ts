import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of a real instance of the service, for upstream tests: it can lose the answers
 * to recharges (the upstream performs them, the caller never hears: a dropped connection after sending)
 * and it can go down (connections refused) and come back on the same port.
 */
export class HttpProxy {
  private server!: Server;
  port = 0;
  /** While true, a POST /v1/recharge is forwarded and performed, but its answer is cut off. */
  loseRechargeAnswers = false;
  /** The next this many answers to POST /v1/recharge are cut off as above; then answers pass again. */
  loseNextRechargeAnswers = 0;

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    this.server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const upstream = await fetch(`${this.target}${request.url}`, {
        method: request.method,
        headers: forwardable(request.headers),
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      const body = await upstream.text();
      const lose = this.loseRechargeAnswers || this.loseNextRechargeAnswers > 0;
      if (lose && request.method === 'POST' && request.url === '/v1/recharge') {
        if (this.loseNextRechargeAnswers > 0) this.loseNextRechargeAnswers--;
        request.socket.destroy();
        return;
      }
      // The answer's own headers pass (Idempotent-Replayed, Retry-After, …); the body is re-sent whole.
      const headers = [...upstream.headers].filter(([name]) => !HOP_BY_HOP.includes(name));
      response.writeHead(upstream.status, Object.fromEntries(headers)).end(body);
    });
    await this.up();
    return this;
  }

  /** Listens (again) on the proxy's port. */
  async up(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Stops listening and drops every connection: new ones are refused until `up()`. */
  async down(): Promise<void> {
    const closed = new Promise((resolve) => this.server.close(resolve));
    this.server.closeAllConnections();
    await closed;
  }
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding'];

function forwardable(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (['host', 'connection', 'content-length', 'transfer-encoding'].includes(name) || value === undefined) continue;
    kept[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}
