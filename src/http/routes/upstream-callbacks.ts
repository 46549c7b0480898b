import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../app/deps.js';
import { callbackSubject, callbackTokenMatches, hearCallback } from '../../app/upstream-callbacks.js';
import { sendProblem } from '../error-handler.js';

/**
 * `POST /upstream/{connector}/callback/{token}`: an upstream's word that a transaction changed. The
 * token is our secret (TOPUP_UPSTREAM_CALLBACK_TOKEN), compared in constant time; a wrong one, or a
 * connector that is not configured, is 404 like any unknown URL. The body only makes the attempt's
 * lookup due now: what the upstream says in it is never recorded as such.
 */
export const upstreamCallbackRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/upstream/:connector/callback/:token',
      {
        schema: {
          hide: true,
          params: Type.Object({ connector: Type.String({ maxLength: 32 }), token: Type.String({ maxLength: 256 }) }),
          body: Type.Unknown(),
        },
      },
      async (request, reply) => {
        const { connector, token } = request.params;
        if (!(deps.config.upstreams as readonly string[]).includes(connector) || !callbackTokenMatches(deps, token)) {
          return sendProblem(request, reply, 'not_found', 'There is no such resource.');
        }
        const subject = callbackSubject(connector, request.body);
        const due = subject ? await hearCallback(deps, connector, subject) : false;
        request.log.info({ connector, subject, due }, 'upstream callback');
        return reply.code(204).send();
      },
    );
  };
