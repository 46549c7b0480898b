import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../app/deps.js';
import { Readable } from 'node:stream';
import { exportOrders, getOrder, listOrders } from '../../app/orders.js';
import { envelope, envelopeOf, problemResponses } from '../../contract/common.js';
import {
  OrderDetailSchema,
  OrderIdParamsSchema,
  OrderQuerySchema,
  orderCsvHeader,
  orderCsvLine,
  OrderRecordSchema,
  presentOrderDetail,
  presentOrderRecord,
} from '../../contract/orders.js';
import { principalOf } from '../auth.js';

/** Whether the client asks for CSV in Accept (and does not prefer JSON before it). */
function acceptsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  const csv = accept.indexOf('text/csv');
  const json = accept.indexOf('application/json');
  return csv >= 0 && (json < 0 || csv < json);
}

export const accountRechargesRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['account'];
    app.get(
      '/v1/account/recharges',
      {
        schema: {
          summary: 'Recharge orders, most recent first',
          description:
            'With format=csv (or Accept: text/csv): every order matching the filters, without paging, streamed as text/csv with a header row: ' +
            'recharge_uuid, number, network, amount, currency, recharge_status, fast_recharge, created_at, updated_at, failure_reason, document_id, deduction, deduction_currency.',
          tags,
          querystring: OrderQuerySchema,
          response: { 200: envelopeOf(OrderRecordSchema), ...problemResponses },
        },
      },
      async (request, reply) => {
        const accountId = principalOf(request).accountId;
        if (request.query.format === 'csv' || acceptsCsv(request.headers.accept)) {
          // Read chunk by chunk as the client takes it (a stream honours backpressure): flat memory.
          const chunks = exportOrders(deps, accountId, request.query);
          const lines = async function* () {
            yield orderCsvHeader();
            for await (const chunk of chunks) yield chunk.map(orderCsvLine).join('');
          };
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', 'attachment; filename="recharges.csv"')
            .send(Readable.from(lines()));
        }
        const { orders, page } = await listOrders(deps, accountId, request.query);
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
