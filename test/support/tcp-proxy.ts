import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on loopback between the service and its database, so a test can cut the database off
 * (every connection dropped, new ones refused) and bring it back, without stopping a shared server.
 */
export class TcpProxy {
  private server!: Server;
  private readonly sockets = new Set<Socket>();
  private cut = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<this> {
    this.server = createServer((client) => {
      if (this.cut) {
        client.destroy();
        return;
      }
      const upstream = connect(this.target.port, this.target.host);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          this.sockets.delete(a);
          b.destroy();
        });
        a.pipe(b);
      }
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The database "goes away": open connections are reset and new ones refused. */
  cutOff(): void {
    this.cut = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.cut = false;
  }

  async stop(): Promise<void> {
    this.cutOff();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
