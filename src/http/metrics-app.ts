import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from '../app/deps.js';
import { degradedChecks, isReady } from '../app/health.js';
import { metricsText } from '../app/queue-stats.js';
import { readinessBody } from './readiness.js';

/**
 * The probes and the scrape of a process that serves no API (`topup worker --metrics-port`): its
 * operator calls, deliveries and LISTEN state are counted in that process, so it answers for itself.
 */
export function buildMetricsApp(deps: Deps): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (!(await isReady(deps))) return reply.code(503).send({ status: 'unavailable' });
    return readinessBody(await degradedChecks(deps));
  });
  app.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await metricsText(deps);
    return reply.type(contentType).send(body);
  });
  return app;
}
