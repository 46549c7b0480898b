import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PongSchema } from '../../contract/account.js';
import { problemResponses } from '../../contract/common.js';
import { principalOf } from '../auth.js';

export const pingRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/ping',
    { schema: { summary: 'Check that an API key works', tags: ['account'], response: { 200: PongSchema, ...problemResponses } } },
    async (request) => {
      const principal = principalOf(request);
      return { success: true as const, environment: principal.environment, accountId: principal.accountId };
    },
  );
};
