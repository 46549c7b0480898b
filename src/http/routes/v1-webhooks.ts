import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../app/deps.js';
import { addWebhook, enableWebhook, listWebhooks, pageOfDeliveries, redeliver, removeWebhook, rotateWebhookSecret, sendTestEvent } from '../../app/webhooks.js';
import { envelope, problemResponses } from '../../contract/common.js';
import {
  CreateWebhookSchema,
  DeliveryIdParamsSchema,
  DeliveryPageSchema,
  DeliveryQuerySchema,
  presentDelivery,
  presentWebhookRecord,
  RedeliveredSchema,
  WebhookCreatedSchema,
  WebhookEnabledSchema,
  WebhookListSchema,
  WebhookNameParamsSchema,
  WebhookRotatedSchema,
  WebhookTestSchema,
} from '../../contract/webhooks.js';
import { principalOf } from '../auth.js';

const tags = ['webhooks'];

/** The account's webhook endpoints and their deliveries, managed by the customer (a full key to change them). */
export const webhooksRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/v1/webhooks', { schema: { summary: "This account's webhook endpoints", tags, response: { 200: WebhookListSchema, ...problemResponses } } }, async (request) => ({
      data: (await listWebhooks(deps, principalOf(request).accountId)).map(presentWebhookRecord),
    }));

    app.post(
      '/v1/webhooks',
      {
        schema: {
          summary: 'Register a webhook endpoint (its signing secret is shown this once)',
          description: 'The URL must be https and resolve to public addresses only (unless the server allows private ones); a taken name is 409 webhook_exists.',
          tags,
          body: CreateWebhookSchema,
          response: { 201: WebhookCreatedSchema, ...problemResponses },
        },
      },
      async (request, reply) => {
        const endpoint = await addWebhook(deps, { accountId: principalOf(request).accountId, ...request.body });
        return reply.code(201).send({ name: endpoint.name, url: endpoint.url, secret: endpoint.secret });
      },
    );

    app.post(
      '/v1/webhooks/:name/enable',
      { schema: { summary: 'Turn an endpoint back on (after a 410 Gone disabled it)', tags, params: WebhookNameParamsSchema, response: { 200: WebhookEnabledSchema, ...problemResponses } } },
      async (request) => {
        await enableWebhook(deps, principalOf(request).accountId, request.params.name);
        return { name: request.params.name, enabled: true as const };
      },
    );

    app.delete(
      '/v1/webhooks/:name',
      { schema: { summary: 'Remove an endpoint (its deliveries stay listed; its name is free again)', tags, params: WebhookNameParamsSchema, response: problemResponses } },
      async (request, reply) => {
        await removeWebhook(deps, principalOf(request).accountId, request.params.name);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/webhooks/:name/rotate-secret',
      {
        schema: {
          summary: 'Give an endpoint a new secret (shown this once)',
          description: 'For 24 hours every delivery is signed with both the new and the old secret: webhook-signature carries both v1, signatures.',
          tags,
          params: WebhookNameParamsSchema,
          response: { 200: WebhookRotatedSchema, ...problemResponses },
        },
      },
      async (request) => rotateWebhookSecret(deps, principalOf(request).accountId, request.params.name),
    );

    app.post(
      '/v1/webhooks/:name/test',
      { schema: { summary: 'Send a webhook.test event, delivered, signed and logged like any other', tags, params: WebhookNameParamsSchema, response: { 202: WebhookTestSchema, ...problemResponses } } },
      async (request, reply) => reply.code(202).send({ id: await sendTestEvent(deps, principalOf(request).accountId, request.params.name) }),
    );

    app.get(
      '/v1/webhooks/deliveries',
      { schema: { summary: 'Webhook deliveries, most recent first, with every attempt', tags, querystring: DeliveryQuerySchema, response: { 200: DeliveryPageSchema, ...problemResponses } } },
      async (request) => {
        const { deliveries, page } = await pageOfDeliveries(deps, principalOf(request).accountId, request.query);
        return envelope(deliveries.map((d) => presentDelivery(d.event, d.attempts)), page);
      },
    );

    app.post(
      '/v1/webhooks/deliveries/:id/redeliver',
      { schema: { summary: 'Send a delivered or failed delivery again, now, with a fresh retry schedule', tags, params: DeliveryIdParamsSchema, response: { 202: RedeliveredSchema, ...problemResponses } } },
      async (request, reply) => {
        await redeliver(deps, request.params.id, principalOf(request).accountId);
        return reply.code(202).send({ id: request.params.id, status: 'pending' as const });
      },
    );
  };
