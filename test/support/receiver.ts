import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** What the receiver does with the next request: answer with a status (and headers), or never answer. */
export type Behaviour = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A real HTTP receiver on loopback for webhook tests. Requests are recorded; answers follow a script
 * (per path), falling back to 200.
 */
export class Receiver {
  readonly received: Received[] = [];
  private readonly scripts = new Map<string, Behaviour[]>();
  private readonly fallback = new Map<string, Behaviour>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const path = request.url ?? '/';
        this.received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        const behaviour = this.scripts.get(path)?.shift() ?? this.fallback.get(path) ?? { status: 200 };
        if (behaviour === 'hang') {
          this.hanging.add(response);
          return;
        }
        response.writeHead(behaviour.status, behaviour.headers).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The next answers on `path`, in order; then `always`, if given. */
  script(path: string, answers: Behaviour[], always?: Behaviour): void {
    this.scripts.set(path, [...answers]);
    if (always) this.fallback.set(path, always);
    else this.fallback.delete(path);
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
