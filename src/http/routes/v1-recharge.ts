import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../app/deps.js';
import type { StoredResponse } from '../../app/idempotency.js';
import { placeRecharge } from '../../app/place-recharge.js';
import { problemResponses } from '../../contract/common.js';
import { IdempotencyHeadersSchema, presentRechargePlaced, rechargeRequestSchema, RechargePlacedSchema } from '../../contract/recharge.js';
import type { Placement } from '../../domain/order.js';
import { principalOf } from '../auth.js';

/** The answer to a placement; with an Idempotency-Key it is stored with the orders and replayed as is. */
const respond = (placement: Placement): StoredResponse => ({ status: 201, body: presentRechargePlaced(placement) });

export const rechargeRoute =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v1/recharge',
      {
        schema: {
          summary: 'Order top-ups, all or nothing',
          description:
            'Every number must have been checked with /v1/check-number by this account. Send an Idempotency-Key header to retry safely: the same key and body return the original response with Idempotent-Replayed: true.',
          tags: ['recharge'],
          headers: IdempotencyHeadersSchema,
          body: rechargeRequestSchema(deps.config.maxEntries),
          response: { 201: RechargePlacedSchema, ...problemResponses },
        },
      },
      async (request, reply) => {
        const key = request.headers['idempotency-key'];
        const outcome = await placeRecharge(deps, principalOf(request), request.body, key === undefined ? undefined : { key, respond });
        if (outcome.replayed) reply.header('idempotent-replayed', 'true');
        const response = outcome.replayed ? outcome.response : (outcome.response ?? respond(outcome.result));
        return reply.code(response.status).send(response.body);
      },
    );
  };
