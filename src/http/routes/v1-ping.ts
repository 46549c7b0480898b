import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../auth.js';
import { problemResponses } from '../schemas/common.js';

const Pong = Type.Object({
  success: Type.Literal(true),
  environment: Type.Union([Type.Literal('staging'), Type.Literal('production')]),
  accountId: Type.String(),
});

export const pingRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/ping',
    { schema: { summary: 'Check that an API key works', tags: ['account'], response: { 200: Pong, ...problemResponses } } },
    async (request) => {
      const principal = principalOf(request);
      return { success: true as const, environment: principal.environment, accountId: principal.accountId };
    },
  );
};
