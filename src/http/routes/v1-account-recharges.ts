import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../app/deps.js';
import { getOrder, listOrders } from '../../app/orders.js';
import { OPERATORS } from '../../domain/operators.js';
import { ORDER_STATUSES } from '../../domain/order-status.js';
import { principalOf } from '../auth.js';
import { DecimalText, envelopeOf, PageQuerySchema, problemResponses, Timestamp } from '../schemas/common.js';

const Status = Type.Union(ORDER_STATUSES.map((s) => Type.Literal(s)));

export const OrderRecordSchema = Type.Object({
  recharge_uuid: Type.String({ format: 'uuid' }),
  number: Type.String({ description: 'International digits form' }),
  network: Type.Union(OPERATORS.map((o) => Type.Literal(o))),
  amount: Type.Number({ description: 'EUR' }),
  currency: Type.Literal('EUR'),
  recharge_status: Status,
  fast_recharge: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  failure_reason: Type.Union([Type.String(), Type.Null()]),
  passthrough: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
});

const Decimal = DecimalText();
const OrderDetail = Type.Composite([
  OrderRecordSchema,
  Type.Object({
    pricing: Type.Object({
      amount: Decimal,
      amountInRon: Decimal,
      eurronRateApplied: Decimal,
      vatRateApplied: Decimal,
      fastRechargeFee: Decimal,
      fastRechargeFeeInRon: Decimal,
      netInRon: Decimal,
      grossInRon: Decimal,
      deduction: Decimal,
      deductionCurrency: Type.Union([Type.Literal('RON'), Type.Literal('EUR')]),
    }),
  }),
]);

const Query = Type.Composite(
  [
    PageQuerySchema,
    Type.Object({
      status: Type.Optional(Status),
      phone_number: Type.Optional(Type.String({ maxLength: 64 })),
      document_id: Type.Optional(Type.String({ format: 'uuid' })),
      from: Type.Optional(Type.String({ format: 'date-time', description: 'created at or after (ISO 8601)' })),
      to: Type.Optional(Type.String({ format: 'date-time', description: 'created before (ISO 8601)' })),
    }),
  ],
  { additionalProperties: false },
);

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
          querystring: Query,
          response: { 200: envelopeOf(OrderRecordSchema), ...problemResponses },
        },
      },
      async (request) => listOrders(deps, principalOf(request).accountId, request.query),
    );
    app.get(
      '/v1/account/recharges/:recharge_uuid',
      {
        schema: {
          summary: 'One recharge order with its pricing',
          tags,
          params: Type.Object({ recharge_uuid: Type.String({ maxLength: 64 }) }),
          response: { 200: OrderDetail, ...problemResponses },
        },
      },
      async (request) => getOrder(deps, principalOf(request).accountId, request.params.recharge_uuid),
    );
  };
