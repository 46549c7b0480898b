import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { checkNumber } from '../../app/number-check.js';
import type { Deps } from '../../app/deps.js';
import { OPERATORS } from '../../domain/operators.js';
import { principalOf } from '../auth.js';
import { problemResponses } from '../schemas/common.js';

const Body = Type.Object(
  { phone_number: Type.String({ maxLength: 64, description: 'National (07…) or international (407…, +407…, 00407…) form' }) },
  { additionalProperties: false },
);

const Valid = Type.Object({
  isValid: Type.Literal(true),
  operator: Type.Union(OPERATORS.map((o) => Type.Literal(o))),
  sanitizedNumber: Type.String({ description: 'International digits form, to use in recharge requests' }),
  national: Type.String(),
  ported: Type.Boolean(),
});

const Invalid = Type.Object({
  isValid: Type.Literal(false),
  message: Type.String(),
  code: Type.Union(['invalid_number', 'not_mobile', 'unsupported_country', 'unsupported_operator', 'not_prepaid'].map((c) => Type.Literal(c))),
});

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
          body: Body,
          response: { 200: Type.Union([Valid, Invalid]), ...problemResponses },
        },
      },
      async (request) => checkNumber(deps, principalOf(request), request.body.phone_number),
    );
  };
