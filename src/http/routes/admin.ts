import { createHash, timingSafeEqual } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createAccount, listAccounts } from '../../app/accounts.js';
import { createApiKey } from '../../app/api-keys.js';
import type { Deps } from '../../app/deps.js';
import { addDeposit } from '../../app/deposits.js';
import { presentAccount } from '../../contract/account.js';
import { ApiKeyCreatedSchema, CreateApiKeySchema } from '../../contract/api-keys.js';
import { CurrencySchema, problemResponses } from '../../contract/common.js';
import { toJsonNumber } from '../../domain/money.js';
import { TransportError } from '../problem.js';

const security = [{ adminToken: [] as string[] }];
const tags = ['admin'];
const AccountIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The admin API, for the business that runs the service: accounts, deposits and keys over HTTP,
 * answering as the command line does. `Authorization: Bearer <TOPUP_ADMIN_TOKEN>`, compared in
 * constant time; 120 requests a minute per client address, wrong tokens included. Registered only
 * when the token is set: otherwise these paths are 404 like any unknown URL.
 */
export const adminRoutes =
  (deps: Deps, token: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(rateLimit, {
      max: 120,
      timeWindow: 60_000,
      keyGenerator: (request) => request.ip,
      enableDraftSpec: true,
      errorResponseBuilder: (_request, context) => new TransportError('rate_limited', `Rate limit of ${context.max} admin requests per minute exceeded; retry in ${context.after}.`),
    });
    const expected = digest(token);
    // After the rate limit (the plugin's per-route onRequest hook), so wrong tokens are counted too;
    // before validation, so an unauthenticated caller learns nothing about the bodies.
    app.addHook('preValidation', async (request) => {
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
      if (!timingSafeEqual(digest(given), expected)) throw new TransportError('invalid_admin_token', 'Send Authorization: Bearer <TOPUP_ADMIN_TOKEN>.');
    });

    app.post(
      '/admin/v1/accounts',
      {
        schema: {
          summary: 'Create an account',
          tags,
          security,
          body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), currency: Type.Optional(CurrencySchema) }, { additionalProperties: false }),
          response: { 201: Type.Object({ id: Type.String(), name: Type.String(), currency: CurrencySchema }), ...problemResponses },
        },
      },
      async (request, reply) => {
        const account = await createAccount(deps, request.body);
        return reply.code(201).send({ id: account.id, name: account.name, currency: account.currency });
      },
    );

    app.get('/admin/v1/accounts', { schema: { summary: 'Every account with its balance', tags, security } }, async () => ({
      data: (await listAccounts(deps)).map(presentAccount),
    }));

    app.post(
      '/admin/v1/accounts/:id/deposits',
      {
        schema: {
          summary: "Credit an account's balance",
          tags,
          security,
          params: AccountIdParams,
          body: Type.Object(
            {
              amount: Type.Union([Type.String({ pattern: '^\\d+(\\.\\d{1,2})?$' }), Type.Number({ exclusiveMinimum: 0 })], { description: "in the account's currency, e.g. \"100.00\"" }),
              reference: Type.Optional(Type.String({ maxLength: 200 })),
            },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ id: Type.String(), amount: Type.Number(), currency: CurrencySchema, balance: Type.Number() }), ...problemResponses },
        },
      },
      async (request, reply) => {
        const { deposit, balance } = await addDeposit(deps, { accountId: request.params.id, amount: String(request.body.amount), reference: request.body.reference });
        return reply.code(201).send({ id: deposit.id, amount: toJsonNumber(deposit.amount), currency: deposit.currency, balance: toJsonNumber(balance) });
      },
    );

    app.post(
      '/admin/v1/accounts/:id/keys',
      {
        schema: { summary: 'Issue an API key for an account (shown this once)', tags, security, params: AccountIdParams, body: CreateApiKeySchema, response: { 201: ApiKeyCreatedSchema, ...problemResponses } },
      },
      async (request, reply) => {
        const { apiKey, key } = await createApiKey(deps, request.params.id, { name: request.body.name ?? null, scope: request.body.scope ?? 'full' });
        return reply.code(201).send({ id: apiKey.id, key, scope: apiKey.scope });
      },
    );
  };
