import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, type KeyCache } from '../app/api-keys.js';
import type { Deps } from '../app/deps.js';
import type { Principal } from '../domain/api-key.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Every route registered in `scope` requires `X-Authorization`; it runs before the body is read. */
export function requireApiKey(scope: FastifyInstance, deps: Deps, cache: KeyCache): void {
  scope.addHook('onRequest', async (request) => {
    const header = request.headers['x-authorization'];
    request.principal = await authenticate(deps, cache, Array.isArray(header) ? header[0] : header);
  });
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route reached without authentication');
  return request.principal;
}
