import type { FastifyInstance } from 'fastify';
import type { Telemetry } from '../app/ports.js';

/** Every answered request is timed by route (the route's pattern, never the raw URL) and status. */
export function timeRequests(app: FastifyInstance, telemetry: Telemetry): void {
  app.addHook('onResponse', async (request, reply) => {
    telemetry.httpRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
}
