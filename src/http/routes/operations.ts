import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../app/deps.js';
import { degradedChecks, isReady } from '../../app/health.js';
import { readinessBody } from '../readiness.js';
import { metricsText } from '../../app/queue-stats.js';
import { sendProblem } from '../error-handler.js';
import { PROBLEMS, problemType, type ProblemCode } from '../problem.js';

const Status = Type.Object({ status: Type.String() });
const Readiness = Type.Object({
  status: Type.String(),
  degraded: Type.Optional(
    Type.Array(Type.Object({ check: Type.String(), connector: Type.String(), since: Type.String({ format: 'date-time' }) }), {
      description: 'what works only in part: an upstream out of float (its orders wait)',
    }),
  ),
});
const open = { security: [], tags: ['operations'] };

/** Unauthenticated endpoints for load balancers, scrapers and humans reading the docs. */
export const operationsRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/healthz', { schema: { ...open, summary: 'The process is up', response: { 200: Status } } }, async () => ({
      status: 'ok',
    }));

    app.get(
      '/readyz',
      { schema: { ...open, summary: 'The database is reachable (and what works only in part)', response: { 200: Readiness } } },
      async (request, reply) => {
        if (!(await isReady(deps))) return sendProblem(request, reply, 'unavailable', 'The database is not reachable.');
        return readinessBody(await degradedChecks(deps));
      },
    );

    app.get('/metrics', { schema: { ...open, summary: 'Prometheus metrics' } }, async (_request, reply) => {
      const { contentType, body } = await metricsText(deps);
      return reply.type(contentType).send(body);
    });

    app.get('/openapi.json', { schema: { ...open, summary: 'This OpenAPI 3.1 document' } }, async () => app.swagger());

    app.get(
      '/problems/:code',
      {
        schema: {
          ...open,
          summary: 'What an error code means',
          params: Type.Object({ code: Type.String() }),
          response: { 200: Type.Object({ type: Type.String(), code: Type.String(), status: Type.Integer(), title: Type.String() }) },
        },
      },
      async (request, reply) => {
        const code = request.params.code as ProblemCode;
        const problem = Object.hasOwn(PROBLEMS, code) ? PROBLEMS[code] : undefined;
        if (!problem) return sendProblem(request, reply, 'not_found', `No error code ${request.params.code}.`);
        return { type: problemType(code), code, status: problem.status, title: problem.title };
      },
    );
  };
