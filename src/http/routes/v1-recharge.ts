import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../app/deps.js';
import { placeRecharge } from '../../app/place-recharge.js';
import { OPERATORS } from '../../domain/operators.js';
import { principalOf } from '../auth.js';
import { DecimalText as Decimal, problemResponses } from '../schemas/common.js';


export const rechargeBody = (maxEntries: number) =>
  Type.Object(
    {
      recharges: Type.Array(
        Type.Object(
          {
            phone_number: Type.String({ maxLength: 64, description: 'Any form check-number accepts' }),
            amount: Type.Number({ description: 'EUR of prepaid credit, excluding VAT, at most 2 decimals' }),
            fast_recharge: Type.Optional(Type.Boolean({ description: 'Overrides the top-level fast_recharge for this entry' })),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: maxEntries },
      ),
      passthrough: Type.Optional(
        Type.Object(
          { document_id: Type.Optional(Type.String({ format: 'uuid' })) },
          { additionalProperties: true, description: 'Caller metadata, up to 4 KiB; returned in order records and webhooks' },
        ),
      ),
      fast_recharge: Type.Optional(Type.Boolean({ description: 'Fast recharge for every entry (a fee applies)' })),
      webhook_name: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$', description: 'A registered endpoint name' })),
    },
    { additionalProperties: false },
  );

const SummaryEntry = Type.Object({
  arrayPosition: Type.Integer(),
  amount: Decimal('EUR, 2 decimals'),
  amountInRon: Decimal('RON'),
  eurronRateApplied: Decimal('4 decimals'),
  fastRechargeFee: Decimal('EUR'),
  fastRechargeFeeInRon: Decimal('RON'),
  netInRon: Decimal('RON'),
  grossInRon: Decimal('RON'),
  operator: Type.Union(OPERATORS.map((o) => Type.Literal(o))),
  phoneNumber: Type.String(),
  rechargeId: Type.String({ format: 'uuid' }),
  vatRateApplied: Decimal('fraction, 2 decimals'),
  deduction: Decimal('in the account currency'),
  status: Type.Literal('PENDING'),
});

const Placed = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  currency: Type.Union([Type.Literal('RON'), Type.Literal('EUR')]),
  balanceDeduction: Decimal('total deducted, 2 decimals'),
  fastRecharge: Type.Boolean(),
  orderSummary: Type.Array(SummaryEntry),
});

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
          headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
          body: rechargeBody(deps.config.maxEntries),
          response: { 201: Placed, ...problemResponses },
        },
      },
      async (request, reply) => {
        const key = request.headers['idempotency-key'];
        const result = await placeRecharge(deps, principalOf(request), request.body, key);
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return reply.code(result.status).send(result.body);
      },
    );
  };
