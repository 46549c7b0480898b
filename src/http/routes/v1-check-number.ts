import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../app/deps.js';
import { checkNumber } from '../../app/number-check.js';
import { CheckNumberRequestSchema, CheckNumberResultSchema, presentNumberCheck } from '../../contract/check-number.js';
import { problemResponses } from '../../contract/common.js';
import { principalOf } from '../auth.js';

export const checkNumberRoute =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v1/check-number',
      {
        schema: {
          summary: 'Check that a number can be topped up and find its operator',
          description: 'A successful check is remembered for the account; recharging a number requires one.',
          tags: ['number check'],
          body: CheckNumberRequestSchema,
          response: { 200: CheckNumberResultSchema, ...problemResponses },
        },
      },
      async (request) => presentNumberCheck(await checkNumber(deps, principalOf(request), request.body.phone_number)),
    );
  };
