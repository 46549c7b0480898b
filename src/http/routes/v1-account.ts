import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAccount } from '../../app/accounts.js';
import type { Deps } from '../../app/deps.js';
import { accountActivity } from '../../app/account-activity.js';
import { listDeposits } from '../../app/deposits.js';
import { ActivityQuerySchema, ActivitySchema, presentActivity } from '../../contract/activity.js';
import { AccountSummarySchema, BalanceSchema, DepositRecordSchema, presentAccountSummary, presentBalance, presentDeposit } from '../../contract/account.js';
import { DepositQuerySchema, envelope, envelopeOf, problemResponses } from '../../contract/common.js';
import { principalOf } from '../auth.js';

export const accountRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['account'];
    app.get(
      '/v1/account',
      { schema: { summary: 'Financial summary of the account', tags, response: { 200: AccountSummarySchema, ...problemResponses } } },
      async (request) => presentAccountSummary(await requireAccount(deps, principalOf(request).accountId)),
    );
    app.get(
      '/v1/account/balance',
      { schema: { summary: 'Remaining credit', tags, response: { 200: BalanceSchema, ...problemResponses } } },
      async (request) => presentBalance(await requireAccount(deps, principalOf(request).accountId)),
    );
    app.get(
      '/v1/account/activity',
      {
        schema: {
          summary: 'Orders and charges per UTC day and status, over the last days (30 unless told)',
          tags,
          querystring: ActivityQuerySchema,
          response: { 200: ActivitySchema, ...problemResponses },
        },
      },
      async (request) => presentActivity(await accountActivity(deps, principalOf(request).accountId, request.query.days)),
    );
    app.get(
      '/v1/account/deposits',
      {
        schema: {
          summary: 'Deposits, most recent first',
          tags,
          querystring: DepositQuerySchema,
          response: { 200: envelopeOf(DepositRecordSchema), ...problemResponses },
        },
      },
      async (request) => {
        const { deposits, page } = await listDeposits(deps, principalOf(request).accountId, request.query);
        return envelope(deposits.map(presentDeposit), page);
      },
    );
  };
