import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../app/deps.js';
import { getOrder, listOrders } from '../../app/orders.js';
import { envelope, envelopeOf, problemResponses } from '../../contract/common.js';
import {
  OrderDetailSchema,
  OrderIdParamsSchema,
  OrderQuerySchema,
  OrderRecordSchema,
  presentOrderDetail,
  presentOrderRecord,
} from '../../contract/orders.js';
import { principalOf } from '../auth.js';

export const accountRechargesRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['account'];
    app.get(
      '/v1/account/recharges',
      {
        schema: {
          summary: 'Recharge orders, most recent first',
          tags,
          querystring: OrderQuerySchema,
          response: { 200: envelopeOf(OrderRecordSchema), ...problemResponses },
        },
      },
      async (request) => {
        const { orders, page } = await listOrders(deps, principalOf(request).accountId, request.query);
        return envelope(orders.map(presentOrderRecord), page);
      },
    );
    app.get(
      '/v1/account/recharges/:recharge_uuid',
      {
        schema: {
          summary: 'One recharge order with its pricing',
          tags,
          params: OrderIdParamsSchema,
          response: { 200: OrderDetailSchema, ...problemResponses },
        },
      },
      async (request) => presentOrderDetail(await getOrder(deps, principalOf(request).accountId, request.params.recharge_uuid)),
    );
  };
