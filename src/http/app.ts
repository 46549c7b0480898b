import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { KeyCache } from '../app/api-keys.js';
import type { Deps } from '../app/deps.js';
import { NoQuerySchema, ProblemSchema } from '../contract/common.js';
import { requireApiKey } from './auth.js';
import { installErrorHandling, sendProblem } from './error-handler.js';
import { installJsonBodyParser } from './json-body.js';
import { BODY_LIMIT_BYTES } from './limits.js';
import { timeRequests } from './metrics.js';
import { answerClientError } from './client-errors.js';
import { TransportError } from './problem.js';
import { connectRedis, redisStore, serviceStore } from './rate-limit-stores.js';
import { accountRoutes } from './routes/v1-account.js';
import { accountRechargesRoutes } from './routes/v1-account-recharges.js';
import { rechargeRoute } from './routes/v1-recharge.js';
import { checkNumberRoute } from './routes/v1-check-number.js';
import { pingRoute } from './routes/v1-ping.js';
import { rechargeQuoteRoute } from './routes/v1-recharge-quote.js';
import { keysRoutes } from './routes/v1-keys.js';
import { webhooksRoutes } from './routes/v1-webhooks.js';
import { adminRoutes } from './routes/admin.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { upstreamCallbackRoutes } from './routes/upstream-callbacks.js';
import { operationsRoutes } from './routes/operations.js';
import { validatorCompiler } from './validation.js';


const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

export interface AppOptions {
  /** Shared with the process's other parts so an in-process revocation takes effect at once. */
  readonly keyCache?: KeyCache;
}

/** Builds the HTTP API as a Fastify instance; it never listens (server.ts does), so tests inject. */
export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const keyCache = options.keyCache ?? new KeyCache(deps.clock);
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    // One line per request is written by our onResponse hook instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => `req_${randomUUID().replace(/-/g, '')}`,
    requestIdHeader: false,
    return503OnClosing: true,
    // A client that trickles its headers or body is cut off instead of holding a socket forever
    // (slowloris); node checks these every second here instead of every 30 s.
    serverFactory: (handler) =>
      createServer(
        {
          headersTimeout: deps.config.httpHeadersTimeoutMs,
          requestTimeout: deps.config.httpRequestTimeoutMs,
          connectionsCheckingInterval: 1_000,
          keepAliveTimeout: 72_000,
        },
        handler,
      ),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
    // Errors below HTTP (headers too large, malformed requests, timeouts) are answered as problem+json
    // with a request id too, not with Fastify's own JSON.
    clientErrorHandler: answerClientError,
    // URLs the router refuses before any route runs still get a problem body.
    frameworkErrors: (error, request, reply) =>
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? sendProblem(request, reply, 'not_found', 'There is no such resource (the id is far too long).')
        : sendProblem(request, reply, 'validation_failed', 'The URL is not valid (bad percent-encoding?).'),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler());
  // JSON is the only body type: text/plain and everything else is refused with 415.
  app.removeContentTypeParser(['text/plain']);
  installJsonBodyParser(app);
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // One line per request: who (address, account), what, how it ended, how long. Probes and scrapes
  // (/healthz, /readyz, /metrics) every few seconds would drown the rest: they are logged at debug.
  app.addHook('onResponse', async (request, reply) => {
    const line = {
      method: request.method,
      // A callback URL carries a secret: its route pattern is logged instead.
      url: request.routeOptions.url?.startsWith('/upstream/') ? request.routeOptions.url : request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      client: request.ip,
      ...(request.principal ? { account: request.principal.accountId } : {}),
    };
    if (QUIET_ROUTES.has(request.routeOptions.url ?? '')) request.log.debug(line, 'request');
    else request.log.info(line, 'request');
  });
  installErrorHandling(app);
  timeRequests(app, deps.telemetry);
  if (deps.config.maxEventLoopDelayMs > 0) {
    // Under overload, refuse quickly with 503 rather than answer everyone late.
    await app.register(underPressure, {
      maxEventLoopDelay: deps.config.maxEventLoopDelayMs,
      retryAfter: 5,
      pressureHandler: (request, reply) => {
        reply.header('retry-after', '5');
        void sendProblem(request, reply, 'unavailable', 'The service is overloaded right now; nothing was changed. Retry shortly.');
      },
    });
  }
  app.addSchema(ProblemSchema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Prepaid mobile top-up API',
        version: '1.0.0',
        description: 'Check Romanian mobile numbers, order prepaid top-ups in batches, read balance, deposits and orders.',
      },
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Authorization' }, adminToken: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ apiKey: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  // The reference page shares its origin with the dashboard's session cookie: it gets a CSP too (its
  // inline scripts by hash), loading nothing from elsewhere and upgrading nothing (staging is plain http).
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { validatorUrl: null },
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace(/ upgrade-insecure-requests;/, '')
        .replace(/ https:/g, '')
        .replace(/ validator\.swagger\.io/, '')
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
  });

  // Cookies are read for the dashboard's session only; every API client sends X-Authorization.
  await app.register(cookie);
  await app.register(operationsRoutes(deps));
  await app.register(dashboardRoutes(deps, keyCache));
  await app.register(upstreamCallbackRoutes(deps));
  if (deps.config.adminToken !== undefined) await app.register(adminRoutes(deps, deps.config.adminToken));
  await app.register(async (v1) => {
    // A route that takes no query refuses one, as the listings refuse unknown parameters: a typo such as
    // `?limt=5` must fail loudly everywhere, not be ignored on some routes.
    v1.addHook('onRoute', (route) => {
      route.schema ??= {};
      route.schema.querystring ??= NoQuerySchema;
    });
    requireApiKey(v1, deps, keyCache, { sessions: true });
    if (deps.config.rateLimitPerMinute > 0) {
      let store = serviceStore(deps);
      if (deps.config.redisUrl) {
        const redis = connectRedis(deps.config.redisUrl);
        app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
        store = redisStore(redis);
      }
      await v1.register(rateLimit, {
        store,
        max: deps.config.rateLimitPerMinute,
        timeWindow: 60_000,
        keyGenerator: (request) => request.principal?.keyId ?? request.ip,
        enableDraftSpec: true,
        errorResponseBuilder: (_request, context) =>
          new TransportError('rate_limited', `Rate limit of ${context.max} requests per minute exceeded; retry in ${context.after}.`),
      });
    }
    await v1.register(checkNumberRoute(deps));
    await v1.register(rechargeRoute(deps));
    await v1.register(rechargeQuoteRoute(deps));
    await v1.register(accountRoutes(deps));
    await v1.register(accountRechargesRoutes(deps));
    await v1.register(pingRoute);
    await v1.register(keysRoutes(deps, keyCache));
    await v1.register(webhooksRoutes(deps));
  });
  return app;
}
