import type { FastifyInstance } from 'fastify';
import type { Deps } from './app/deps.js';
import { buildApp } from './http/app.js';

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly url: string;
  close(): Promise<void>;
}

/** Listens, and closes gracefully: in-flight requests finish, new ones get 503, then the store closes. */
export async function startServer(deps: Deps, listen: { port: number; host: string }): Promise<RunningServer> {
  const app = await buildApp(deps);
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
  const close = () =>
    (closing ??= (async () => {
      await app.close();
      await deps.store.close();
    })());
  return { app, url: `http://${host}:${port}`, close };
}
