import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createApiKey, listApiKeys, revokeApiKey, type KeyCache } from '../../app/api-keys.js';
import type { Deps } from '../../app/deps.js';
import { ApiKeyCreatedSchema, ApiKeyIdParamsSchema, ApiKeyListSchema, CreateApiKeySchema, presentApiKey } from '../../contract/api-keys.js';
import { problemResponses } from '../../contract/common.js';
import { principalOf } from '../auth.js';

const tags = ['keys'];

/** The account's own API keys: listed, issued (shown once), revoked. Managing them takes a full key. */
export const keysRoutes =
  (deps: Deps, cache: KeyCache): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/v1/keys', { schema: { summary: "This account's API keys (never the keys themselves)", tags, response: { 200: ApiKeyListSchema, ...problemResponses } } }, async (request) => ({
      data: (await listApiKeys(deps, principalOf(request).accountId)).map(presentApiKey),
    }));

    app.post(
      '/v1/keys',
      { schema: { summary: 'Issue an API key (shown this once)', tags, body: CreateApiKeySchema, response: { 201: ApiKeyCreatedSchema, ...problemResponses } } },
      async (request, reply) => {
        const { apiKey, key } = await createApiKey(deps, principalOf(request).accountId, { name: request.body.name ?? null, scope: request.body.scope ?? 'full' });
        return reply.code(201).send({ id: apiKey.id, key, scope: apiKey.scope });
      },
    );

    app.delete(
      '/v1/keys/:id',
      { schema: { summary: 'Revoke an API key: it stops working everywhere within 2 seconds', tags, params: ApiKeyIdParamsSchema, response: problemResponses } },
      async (request, reply) => {
        await revokeApiKey(deps, request.params.id, cache, principalOf(request).accountId);
        return reply.code(204).send();
      },
    );
  };
