import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ENVIRONMENTS, type Environment } from './domain/environment.js';
import { parseDecimal } from './domain/money.js';
import { isOperator, type Operator } from './domain/operators.js';

/**
 * Every setting the service reads, in one schema, checked once at start. A bad value stops the
 * process with a message naming the variable, never a default silently used in its place.
 */
const whole = (description: string) => Type.String({ pattern: '^\\d{1,9}$', description });
const bool = (description: string) => Type.String({ pattern: '^(true|false|1|0)$', description });
const decimal = (description: string, decimals: number) =>
  Type.String({ pattern: `^\\d{1,6}(\\.\\d{1,${decimals}})?$`, description });

export const SettingsSchema = Type.Object({
  PORT: Type.Optional(whole('HTTP port (default 8080)')),
  HOST: Type.Optional(Type.String({ minLength: 1, description: 'HTTP bind address (default 127.0.0.1)' })),
  DATABASE_URL: Type.Optional(Type.String({ description: 'postgres://… or an SQLite file path' })),
  TOPUP_ENV: Type.Optional(Type.Union(ENVIRONMENTS.map((e) => Type.Literal(e)))),
  TOPUP_ALLOW_SIMULATOR: Type.Optional(bool('allow the operator simulator in production')),
  TOPUP_EUR_RON_RATE: Type.Optional(decimal('fixed EUR/RON rate, overrides the feed', 4)),
  TOPUP_FAST_RECHARGE_FEE_EUR: Type.Optional(decimal('fast recharge fee in EUR (default 0.50)', 2)),
  TOPUP_VAT_RATE: Type.Optional(Type.String({ pattern: '^0(\\.\\d{1,2})?$', description: 'VAT as a fraction, e.g. 0.21' })),
  TOPUP_NUMBER_CHECK_TTL_SECONDS: Type.Optional(whole('how long a number check makes a number rechargeable; 0 = off')),
  TOPUP_MAX_ENTRIES: Type.Optional(whole('most entries in one recharge request (default 100)')),
  TOPUP_RATE_LIMIT_PER_MINUTE: Type.Optional(whole('requests per key per minute; 0 = off (default 1200)')),
  TOPUP_AUTH_FAILURES_PER_MINUTE: Type.Optional(whole('requests without a valid key per client address per minute, then 429; 0 = off (default 30)')),
  TOPUP_OPERATORS: Type.Optional(Type.String({ pattern: '^[a-z]+(,[a-z]+)*$', description: 'operators served' })),
  TOPUP_SIMULATOR_DELAY_MS: Type.Optional(whole('simulated operator delay (default 3000)')),
  TOPUP_SIMULATOR_FAST_DELAY_MS: Type.Optional(whole('simulated delay for fast recharges (default 300)')),
  TOPUP_WEBHOOK_ALLOW_PRIVATE: Type.Optional(bool('allow webhook URLs on private addresses')),
  TOPUP_BNR_FEED_URL: Type.Optional(Type.String({ pattern: '^https?://', description: 'National Bank of Romania rates feed' })),
  TOPUP_DB_POOL_SIZE: Type.Optional(whole('PostgreSQL pool size (default 10)')),
  TOPUP_DB_STATEMENT_TIMEOUT_MS: Type.Optional(whole('PostgreSQL statement timeout (default 30000)')),
  TOPUP_WORKER_CLAIM_TTL_MS: Type.Optional(whole('lease of a claimed order, renewed by a live worker every third of it (default 15000)')),
  TOPUP_OPERATOR_TIMEOUT_MS: Type.Optional(whole('longest an operator call may take before its outcome counts as unknown (default 30000)')),
  TOPUP_IDEMPOTENCY_LOCK_MS: Type.Optional(whole('how long a request holds its Idempotency-Key before a retry may take over (default 10000)')),
  TOPUP_MAX_EVENT_LOOP_DELAY_MS: Type.Optional(whole('shed load with 503 above this event-loop delay; 0 = off (default 1000)')),
  TOPUP_HTTP_HEADERS_TIMEOUT_MS: Type.Optional(whole('time a client has to send its request headers (default 10000)')),
  TOPUP_HTTP_REQUEST_TIMEOUT_MS: Type.Optional(whole('time a client has to send its whole request (default 30000)')),
  TOPUP_WEBHOOK_TIMEOUT_MS: Type.Optional(whole('webhook delivery timeout (default 10000)')),
  TOPUP_SHUTDOWN_TIMEOUT_MS: Type.Optional(whole('longest a SIGTERM shutdown may take before the process exits anyway (default 10000)')),
  TOPUP_UPSTREAM: Type.Optional(Type.String({ pattern: '^[a-z]+(,[a-z]+)*$', description: 'simulator, or upstream connectors in priority order, e.g. topup' })),
  TOPUP_UPSTREAM_TOPUP_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'base URL of the topup upstream (a service with this interface)' })),
  TOPUP_UPSTREAM_TOPUP_KEY: Type.Optional(Type.String({ minLength: 1, description: 'API key of our account at the topup upstream' })),
  DTONE_API_KEY: Type.Optional(Type.String({ minLength: 1, description: 'DT One DVS API key (HTTP Basic user name)' })),
  DTONE_API_SECRET: Type.Optional(Type.String({ minLength: 1, description: 'DT One DVS API secret (HTTP Basic password)' })),
  DTONE_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'DT One DVS API base URL (default: the sandbox in staging, production otherwise)' })),
  RELOADLY_CLIENT_ID: Type.Optional(Type.String({ minLength: 1, description: 'Reloadly OAuth2 client id' })),
  RELOADLY_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1, description: 'Reloadly OAuth2 client secret' })),
  RELOADLY_AUTH_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'Reloadly token URL (default https://auth.reloadly.com/oauth/token)' })),
  RELOADLY_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'Reloadly Airtime API base URL (default: the sandbox in staging, production otherwise)' })),
  TOPUP_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'the public base URL of this service, for upstream callback URLs' })),
  TOPUP_UPSTREAM_CALLBACK_TOKEN: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{24,}$', description: 'the secret in upstream callback URLs (24+ URL-safe characters)' })),
  TOPUP_ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 32, description: 'Bearer token of the admin API (/admin/v1); unset: the admin API is off' })),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://', description: 'shared rate-limit store' })),
  LOG_LEVEL: Type.Optional(Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)))),
});
export type Settings = Static<typeof SettingsSchema>;

export type DatabaseTarget =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string };

export interface Config {
  readonly environment: Environment;
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseTarget;
  readonly allowSimulator: boolean;
  /** EUR/RON in units of 0.0001, when fixed by setting. */
  readonly fixedEurRonRate: bigint | undefined;
  /** Fast recharge fee in euro cents. */
  readonly fastRechargeFeeEur: bigint;
  /** VAT in hundredths (21n = 0.21), when fixed by setting; else the dated schedule applies. */
  readonly fixedVatRate: bigint | undefined;
  readonly numberCheckTtlSeconds: number;
  readonly maxEntries: number;
  readonly rateLimitPerMinute: number;
  readonly authFailuresPerMinute: number;
  readonly operators: readonly Operator[];
  readonly simulatorDelayMs: number;
  readonly simulatorFastDelayMs: number;
  readonly webhookAllowPrivate: boolean;
  readonly bnrFeedUrl: string;
  readonly dbPoolSize: number;
  readonly dbStatementTimeoutMs: number;
  /** Lease of a claimed order: a dead worker's orders are taken over after at most this long. */
  readonly workerClaimTtlMs: number;
  readonly operatorTimeoutMs: number;
  readonly shutdownTimeoutMs: number;
  readonly webhookTimeoutMs: number;
  readonly idempotencyLockMs: number;
  readonly maxEventLoopDelayMs: number;
  readonly httpHeadersTimeoutMs: number;
  readonly httpRequestTimeoutMs: number;
  /** Upstream connectors in priority order (`simulator` alone in staging by default). */
  readonly upstreams: readonly UpstreamName[];
  readonly upstreamTopup: { readonly url: string; readonly key: string } | undefined;
  readonly dtone: { readonly baseUrl: string; readonly key: string; readonly secret: string } | undefined;
  readonly reloadly: { readonly clientId: string; readonly clientSecret: string; readonly authUrl: string; readonly baseUrl: string } | undefined;
  /** Where upstreams call us back (`<public URL>/upstream/<connector>/callback/<token>`), when both are set. */
  readonly upstreamCallbacks: { readonly publicUrl: string; readonly token: string } | undefined;
  /** The admin API's bearer token; undefined: the admin API is off (404). */
  readonly adminToken: string | undefined;
  readonly redisUrl: string | undefined;
  readonly logLevel: string;
}

/** The connectors this version can fulfil through. */
export const UPSTREAM_NAMES = ['simulator', 'topup', 'dtone', 'reloadly'] as const;
export type UpstreamName = (typeof UPSTREAM_NAMES)[number];

/** The settings each connector cannot work without. */
const CREDENTIALS: Readonly<Record<string, readonly string[]>> = {
  topup: ['TOPUP_UPSTREAM_TOPUP_URL', 'TOPUP_UPSTREAM_TOPUP_KEY'],
  dtone: ['DTONE_API_KEY', 'DTONE_API_SECRET'],
  reloadly: ['RELOADLY_CLIENT_ID', 'RELOADLY_CLIENT_SECRET'],
};

/** DT One's documented hosts. */
export const DTONE_SANDBOX_URL = 'https://preprod-dvs-api.dtone.com/v1';
export const DTONE_PRODUCTION_URL = 'https://dvs-api.dtone.com/v1';

/** Reloadly's documented hosts. */
export const RELOADLY_AUTH_URL = 'https://auth.reloadly.com/oauth/token';
export const RELOADLY_SANDBOX_URL = 'https://topups-sandbox.reloadly.com';
export const RELOADLY_PRODUCTION_URL = 'https://topups.reloadly.com';

/** TOPUP_UPSTREAM checked: known names, each once, the simulator alone, and every credential named. */
function upstreamProblems(raw: Record<string, string | undefined>): string[] {
  const names = (raw.TOPUP_UPSTREAM ?? 'simulator').split(',');
  const problems = names
    .filter((name) => !(UPSTREAM_NAMES as readonly string[]).includes(name))
    .map((name) => `TOPUP_UPSTREAM: unknown connector "${name}" (must be simulator, or a list of: ${UPSTREAM_NAMES.filter((n) => n !== 'simulator').join(', ')})`);
  if (new Set(names).size !== names.length) problems.push('TOPUP_UPSTREAM: a connector is named twice');
  if (names.includes('simulator') && names.length > 1) problems.push('TOPUP_UPSTREAM: the simulator fakes top-ups and cannot be mixed with real upstreams');
  for (const [name, variables] of Object.entries(CREDENTIALS)) {
    if (!names.includes(name)) continue;
    for (const variable of variables) if (raw[variable] === undefined) problems.push(`${variable}: required when TOPUP_UPSTREAM includes ${name}`);
  }
  if (raw.TOPUP_ENV === 'production' && raw.TOPUP_PUBLIC_URL?.startsWith('http://')) {
    problems.push('TOPUP_PUBLIC_URL: must be https in production (callback URLs carry a secret)');
  }
  if ((raw.TOPUP_PUBLIC_URL === undefined) !== (raw.TOPUP_UPSTREAM_CALLBACK_TOKEN === undefined)) {
    problems.push('TOPUP_PUBLIC_URL and TOPUP_UPSTREAM_CALLBACK_TOKEN: set both (upstream callbacks) or neither');
  }
  return problems;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function databaseTarget(url: string | undefined, environment: Environment): DatabaseTarget {
  if (url === undefined || url.trim() === '') return { kind: 'sqlite', path: `./data/topup-${environment}.db` };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  return { kind: 'sqlite', path: url.replace(/^sqlite:/, '') };
}

const flag = (value: string | undefined, fallback: boolean) =>
  value === undefined ? fallback : value === 'true' || value === '1';

/** Reads and checks the settings; throws ConfigError listing every bad variable at once. */
export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): Config {
  const raw = Object.fromEntries(
    Object.keys(SettingsSchema.properties).flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]])),
  );
  const problems = [...Value.Errors(SettingsSchema, raw)].map((e) => {
    const name = e.path.slice(1) || 'settings';
    // A choice is named with its allowed values, not TypeBox's "Expected union value".
    const choices = (e.schema as { anyOf?: Array<{ const?: unknown }> }).anyOf?.map((option) => option.const);
    return choices?.every((c) => typeof c === 'string') ? `${name}: must be one of ${choices.join(', ')} (got "${String(e.value)}")` : `${name}: ${e.message}`;
  });
  if (raw.PORT !== undefined && Number(raw.PORT) > 65_535) problems.push(`PORT: must be a port number from 0 to 65535 (got ${raw.PORT})`);
  const operators = (raw.TOPUP_OPERATORS ?? 'orange,vodafone,telekom').split(',');
  for (const name of operators) if (!isOperator(name)) problems.push(`TOPUP_OPERATORS: unknown operator "${name}"`);
  if (raw.TOPUP_MAX_ENTRIES !== undefined && Number(raw.TOPUP_MAX_ENTRIES) < 1) problems.push('TOPUP_MAX_ENTRIES: must be at least 1');
  if (raw.TOPUP_DB_POOL_SIZE !== undefined && Number(raw.TOPUP_DB_POOL_SIZE) < 1) problems.push('TOPUP_DB_POOL_SIZE: must be at least 1');
  if (raw.TOPUP_WEBHOOK_TIMEOUT_MS !== undefined && Number(raw.TOPUP_WEBHOOK_TIMEOUT_MS) < 100) {
    problems.push('TOPUP_WEBHOOK_TIMEOUT_MS: must be at least 100');
  }
  if (raw.TOPUP_WORKER_CLAIM_TTL_MS !== undefined && Number(raw.TOPUP_WORKER_CLAIM_TTL_MS) < 1000) {
    problems.push('TOPUP_WORKER_CLAIM_TTL_MS: must be at least 1000');
  }
  if (raw.TOPUP_SHUTDOWN_TIMEOUT_MS !== undefined && Number(raw.TOPUP_SHUTDOWN_TIMEOUT_MS) < 1000) {
    problems.push('TOPUP_SHUTDOWN_TIMEOUT_MS: must be at least 1000');
  }
  if (raw.TOPUP_OPERATOR_TIMEOUT_MS !== undefined && Number(raw.TOPUP_OPERATOR_TIMEOUT_MS) < 100) {
    problems.push('TOPUP_OPERATOR_TIMEOUT_MS: must be at least 100');
  }
  problems.push(...upstreamProblems(raw));
  if (problems.length > 0) throw new ConfigError(`invalid settings: ${problems.join('; ')}`);
  const s = raw as Settings;
  const environment = s.TOPUP_ENV ?? 'staging';
  const int = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));
  return Object.freeze({
    environment,
    port: int(s.PORT, 8080),
    host: s.HOST ?? '127.0.0.1',
    database: databaseTarget(s.DATABASE_URL, environment),
    allowSimulator: flag(s.TOPUP_ALLOW_SIMULATOR, false),
    fixedEurRonRate: s.TOPUP_EUR_RON_RATE === undefined ? undefined : parseDecimal(s.TOPUP_EUR_RON_RATE, 4),
    fastRechargeFeeEur: parseDecimal(s.TOPUP_FAST_RECHARGE_FEE_EUR ?? '0.50', 2)!,
    fixedVatRate: s.TOPUP_VAT_RATE === undefined ? undefined : parseDecimal(s.TOPUP_VAT_RATE, 2),
    numberCheckTtlSeconds: int(s.TOPUP_NUMBER_CHECK_TTL_SECONDS, 86_400),
    maxEntries: int(s.TOPUP_MAX_ENTRIES, 100),
    rateLimitPerMinute: int(s.TOPUP_RATE_LIMIT_PER_MINUTE, 1200),
    authFailuresPerMinute: int(s.TOPUP_AUTH_FAILURES_PER_MINUTE, 30),
    operators: Object.freeze(operators.filter(isOperator)),
    simulatorDelayMs: int(s.TOPUP_SIMULATOR_DELAY_MS, 3000),
    simulatorFastDelayMs: int(s.TOPUP_SIMULATOR_FAST_DELAY_MS, 300),
    webhookAllowPrivate: flag(s.TOPUP_WEBHOOK_ALLOW_PRIVATE, environment === 'staging'),
    bnrFeedUrl: s.TOPUP_BNR_FEED_URL ?? 'https://www.bnr.ro/nbrfxrates.xml',
    dbPoolSize: int(s.TOPUP_DB_POOL_SIZE, 10),
    dbStatementTimeoutMs: int(s.TOPUP_DB_STATEMENT_TIMEOUT_MS, 30_000),
    workerClaimTtlMs: int(s.TOPUP_WORKER_CLAIM_TTL_MS, 15_000),
    operatorTimeoutMs: int(s.TOPUP_OPERATOR_TIMEOUT_MS, 30_000),
    shutdownTimeoutMs: int(s.TOPUP_SHUTDOWN_TIMEOUT_MS, 10_000),
    webhookTimeoutMs: int(s.TOPUP_WEBHOOK_TIMEOUT_MS, 10_000),
    idempotencyLockMs: int(s.TOPUP_IDEMPOTENCY_LOCK_MS, 10_000),
    maxEventLoopDelayMs: int(s.TOPUP_MAX_EVENT_LOOP_DELAY_MS, 1_000),
    httpHeadersTimeoutMs: int(s.TOPUP_HTTP_HEADERS_TIMEOUT_MS, 10_000),
    httpRequestTimeoutMs: int(s.TOPUP_HTTP_REQUEST_TIMEOUT_MS, 30_000),
    upstreams: Object.freeze((s.TOPUP_UPSTREAM ?? 'simulator').split(',') as UpstreamName[]),
    upstreamTopup:
      s.TOPUP_UPSTREAM_TOPUP_URL !== undefined && s.TOPUP_UPSTREAM_TOPUP_KEY !== undefined
        ? { url: s.TOPUP_UPSTREAM_TOPUP_URL.replace(/\/+$/, ''), key: s.TOPUP_UPSTREAM_TOPUP_KEY }
        : undefined,
    dtone:
      s.DTONE_API_KEY !== undefined && s.DTONE_API_SECRET !== undefined
        ? {
            baseUrl: (s.DTONE_BASE_URL ?? (environment === 'production' ? DTONE_PRODUCTION_URL : DTONE_SANDBOX_URL)).replace(/\/+$/, ''),
            key: s.DTONE_API_KEY,
            secret: s.DTONE_API_SECRET,
          }
        : undefined,
    reloadly:
      s.RELOADLY_CLIENT_ID !== undefined && s.RELOADLY_CLIENT_SECRET !== undefined
        ? {
            clientId: s.RELOADLY_CLIENT_ID,
            clientSecret: s.RELOADLY_CLIENT_SECRET,
            authUrl: s.RELOADLY_AUTH_URL ?? RELOADLY_AUTH_URL,
            baseUrl: (s.RELOADLY_BASE_URL ?? (environment === 'production' ? RELOADLY_PRODUCTION_URL : RELOADLY_SANDBOX_URL)).replace(/\/+$/, ''),
          }
        : undefined,
    upstreamCallbacks:
      s.TOPUP_PUBLIC_URL !== undefined && s.TOPUP_UPSTREAM_CALLBACK_TOKEN !== undefined
        ? { publicUrl: s.TOPUP_PUBLIC_URL.replace(/\/+$/, ''), token: s.TOPUP_UPSTREAM_CALLBACK_TOKEN }
        : undefined,
    adminToken: s.TOPUP_ADMIN_TOKEN,
    redisUrl: s.REDIS_URL,
    logLevel: s.LOG_LEVEL ?? 'info',
  });
}
