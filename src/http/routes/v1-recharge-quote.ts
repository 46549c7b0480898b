import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../app/deps.js';
import { quoteRecharge } from '../../app/place-recharge.js';
import { problemResponses } from '../../contract/common.js';
import { presentRechargeQuote, rechargeRequestSchema, RechargeQuoteSchema } from '../../contract/recharge.js';
import { principalOf } from '../auth.js';

export const rechargeQuoteRoute =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v1/recharge/quote',
      {
        schema: {
          summary: 'Price a recharge request without placing it',
          description:
            'The body of /v1/recharge, judged and priced by exactly the same rules (number checks, bounds, rate, VAT, fees). Nothing is stored or charged; invalid entries are 422 invalid_recharge as on /v1/recharge.',
          tags: ['recharge'],
          body: rechargeRequestSchema(deps.config.maxEntries),
          response: { 200: RechargeQuoteSchema, ...problemResponses },
        },
      },
      async (request) => presentRechargeQuote(await quoteRecharge(deps, principalOf(request), request.body)),
    );
  };
