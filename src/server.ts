import type { FastifyInstance } from 'fastify';
import type { Deps } from './app/deps.js';
import { buildApp } from './http/app.js';
import { buildMetricsApp } from './http/metrics-app.js';

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly url: string;
  /**
   * Stops accepting (new requests get 503) and lets in-flight requests finish; connections still open
   * after `graceMs` (a client that stalls mid-request) are cut. The store stays open for the caller.
   */
  close(graceMs: number): Promise<void>;
}

/** Listens on the address; on failure nothing is left running (the caller says why and exits). */
export async function startServer(deps: Deps, listen: { port: number; host: string }): Promise<RunningServer> {
  return listenWith(await buildApp(deps), listen);
}

/** The probes and /metrics alone, for a worker process. */
export function startMetricsServer(deps: Deps, listen: { port: number; host: string }): Promise<RunningServer> {
  return listenWith(buildMetricsApp(deps), listen);
}

async function listenWith(app: FastifyInstance, listen: { port: number; host: string }): Promise<RunningServer> {
  try {
    await app.listen({ port: listen.port, host: listen.host });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  let closing: Promise<void> | undefined;
  const close = (graceMs: number) =>
    (closing ??= (async () => {
      const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
      cut.unref();
      await app.close();
      clearTimeout(cut);
    })());
  return { app, url: `http://${host}:${port}`, close };
}
