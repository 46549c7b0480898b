import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { createAccount } from '../../src/app/accounts.js';
import { createApiKey, KeyCache } from '../../src/app/api-keys.js';
import type { Deps } from '../../src/app/deps.js';
import { addDeposit } from '../../src/app/deposits.js';
import { audit } from '../../src/app/audit.js';
import type { Clock, HostResolver } from '../../src/app/ports.js';
import { loadConfig, type DatabaseTarget } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createDeps, type DepsOverrides, type Service } from '../../src/main.js';
import type { Dialect } from '../../src/store/dialect.js';
import { databaseEnv } from './cli.js';
import { databaseUrl } from './postgres-server.js';

export const DIALECTS: readonly Dialect[] = ['sqlite', 'postgres'];

/** Time in tests moves only when a test moves it. */
export class FakeClock implements Clock {
  // Starts at the real time so signatures with timestamps verify, then moves only when told to.
  constructor(private current = Date.now()) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestDatabase {
  readonly target: DatabaseTarget;
  drop(): Promise<void>;
}

/** A database of its own for one suite: a temporary SQLite file, or a clone of the migrated PostgreSQL template. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'topup-test-'));
    return { target: { kind: 'sqlite', path: join(dir, 'test.db') }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const postgres = inject('postgres');
  if (!postgres) throw new Error('PostgreSQL suites must be skipped when PostgreSQL is not available');
  const name = `${postgres.runTag}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${postgres.template}`);
  await admin.end();
  return {
    target: { kind: 'postgres', url: databaseUrl(postgres.adminUrl, name) },
    drop: async () => {
      const client = new pg.Client({ connectionString: postgres.adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Runs `body` once per dialect; the PostgreSQL run is skipped (loudly, in global setup) only without PostgreSQL. */
export function describeEachDialect(title: string, body: (dialect: Dialect) => void): void {
  for (const dialect of DIALECTS) {
    describe.skipIf(dialect === 'postgres' && !inject('postgres'))(`${title} [${dialect}]`, () => body(dialect));
  }
}

export interface TestAccount {
  readonly accountId: string;
  readonly key: string;
  readonly keyId: string;
}

export interface TestContext {
  readonly deps: Deps;
  readonly app: FastifyInstance;
  readonly clock: FakeClock;
  readonly keyCache: KeyCache;
  readonly database: TestDatabase;
  /** A new account with optional credit and a key. */
  account(options?: { currency?: 'RON' | 'EUR'; credit?: string; name?: string }): Promise<TestAccount>;
  /** app.inject with the key in X-Authorization and JSON bodies encoded. */
  call(key: string | undefined, options: InjectOptions): Promise<LightMyRequestResponse>;
}


/**
 * Dependencies on a test database, made by the production factory (`createDeps`, which also migrates):
 * only the clock, the log and what the test overrides differ.
 */
export function testDeps(target: DatabaseTarget, env: Record<string, string>, overrides: DepsOverrides = {}): Promise<Service> {
  // The failed-auth limit is off unless a suite turns it on: with a clock that stands still, the 401
  // matrices and the fuzzer would otherwise run into it (auth.security.test.ts tests it).
  const settings = { TOPUP_ENV: 'staging', TOPUP_AUTH_FAILURES_PER_MINUTE: '0', ...env, ...databaseEnv(target) };
  return createDeps(loadConfig(settings), { log: pino({ level: 'silent' }), ...overrides });
}

export async function openTestContext(dialect: Dialect, env: Record<string, string> = {}, resolveHost?: HostResolver): Promise<TestContext> {
  const database = await createTestDatabase(dialect);
  const clock = new FakeClock();
  const deps = await testDeps(database.target, env, { clock, ...(resolveHost ? { resolveHost } : {}) });
  const keyCache = new KeyCache(clock);
  const app = await buildApp(deps, { keyCache });
  await app.ready();
  return {
    deps,
    app,
    clock,
    keyCache,
    database,
    async account(options = {}) {
      const account = await createAccount(deps, { name: options.name ?? 'test', currency: options.currency ?? 'RON' });
      if (options.credit) await addDeposit(deps, { accountId: account.id, amount: options.credit });
      const { apiKey, key } = await createApiKey(deps, account.id);
      return { accountId: account.id, key, keyId: apiKey.id };
    },
    call(key, options) {
      const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
      if (key !== undefined) headers['x-authorization'] = key;
      return app.inject({ ...options, headers });
    },
  };
}

/** Every suite ends by reconciling its books: a test that left money or orders inconsistent fails here. */
export async function closeTestContext(ctx: TestContext): Promise<void> {
  const report = await audit(ctx.deps);
  if (!report.ok) throw new Error(`topup audit found ${report.problems.length} problem(s): ${JSON.stringify(report.problems.slice(0, 5))}`);
  await ctx.app.close();
  await ctx.deps.store.close();
  await ctx.database.drop();
}

/** Opens a context before the suite's tests and closes it after; read `.ctx` inside tests. */
export function useTestContext(
  dialect: Dialect,
  env: Record<string, string> = {},
  resolveHost?: HostResolver,
): { readonly ctx: TestContext } {
  const holder: { ctx: TestContext } = { ctx: undefined as unknown as TestContext };
  beforeAll(async () => {
    holder.ctx = await openTestContext(dialect, env, resolveHost);
  });
  afterAll(async () => {
    if (holder.ctx) await closeTestContext(holder.ctx);
  });
  return holder;
}

/** The number checks a recharge needs, done through the API as a client would. */
export async function checkNumbers(ctx: TestContext, key: string, numbers: readonly string[]): Promise<void> {
  for (const phone_number of numbers) {
    const response = await ctx.call(key, { method: 'POST', url: '/v1/check-number', payload: { phone_number } });
    if (!response.json().isValid) throw new Error(`fixture number ${phone_number} is not valid: ${response.body}`);
  }
}

export function recharge(ctx: TestContext, key: string, payload: object, headers: Record<string, string> = {}) {
  return ctx.call(key, { method: 'POST', url: '/v1/recharge', payload, headers });
}

/** A new customer (with `credit`, 500.00 unless told) who checks `number` and orders one top-up of it; the order's id with the account. */
export async function customerOrder(ctx: TestContext, number: string, options: { amount?: number; credit?: string } = {}) {
  const customer = await ctx.account({ credit: options.credit ?? '500.00' });
  await checkNumbers(ctx, customer.key, [number]);
  const response = await recharge(ctx, customer.key, { recharges: [{ phone_number: number, amount: options.amount ?? 5 }] });
  expect(response.statusCode).toBe(201);
  return { ...customer, id: response.json().orderSummary[0].rechargeId as string };
}

/** Settings that make the simulator answer at once and prices predictable. */
export const FAST_SIMULATOR: Record<string, string> = {
  TOPUP_SIMULATOR_DELAY_MS: '0',
  TOPUP_SIMULATOR_FAST_DELAY_MS: '0',
  TOPUP_EUR_RON_RATE: '4.9773',
};

/** Dependencies on a given database with the real clock, for tests that run the service as processes. */
export function processDeps(target: DatabaseTarget, env: Record<string, string>): Promise<Service> {
  return testDeps(target, env, { clock: { now: () => Date.now() } });
}
