import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { accountBalance, accountSummary } from '../../app/accounts.js';
import type { Deps } from '../../app/deps.js';
import { listDeposits } from '../../app/deposits.js';
import { principalOf } from '../auth.js';
import { envelopeOf, PageQuerySchema, problemResponses, Timestamp } from '../schemas/common.js';

const Currency = Type.Union([Type.Literal('RON'), Type.Literal('EUR')]);

const Summary = Type.Object({
  currency: Currency,
  totalDeposits: Type.Number(),
  totalConsumed: Type.Number(),
  creditRemaining: Type.Number(),
  orderSummary: Type.Object({
    recharges: Type.Object({
      count: Type.Integer(),
      totalAmountNet: Type.Number(),
      totalAmountGross: Type.Number(),
      totalFastRechargeFeeNet: Type.Number(),
      totalFastRechargeFeeGross: Type.Number(),
      totalVat: Type.Number(),
      totalDeducted: Type.Number(),
    }),
  }),
});

const Balance = Type.Object({ balance: Type.Number(), currency: Currency });

const Deposit = Type.Object({
  id: Type.String(),
  amount: Type.Number(),
  currency: Currency,
  reference: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});

export const accountRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['account'];
    app.get(
      '/v1/account',
      { schema: { summary: 'Financial summary of the account', tags, response: { 200: Summary, ...problemResponses } } },
      async (request) => accountSummary(deps, principalOf(request).accountId),
    );
    app.get(
      '/v1/account/balance',
      { schema: { summary: 'Remaining credit', tags, response: { 200: Balance, ...problemResponses } } },
      async (request) => accountBalance(deps, principalOf(request).accountId),
    );
    app.get(
      '/v1/account/deposits',
      {
        schema: {
          summary: 'Deposits, most recent first',
          tags,
          querystring: PageQuerySchema,
          response: { 200: envelopeOf(Deposit), ...problemResponses },
        },
      },
      async (request) => listDeposits(deps, principalOf(request).accountId, request.query),
    );
  };
