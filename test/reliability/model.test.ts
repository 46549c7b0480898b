import fc from 'fast-check';
import { expect, it } from 'vitest';
import { addDeposit } from '../../src/app/deposits.js';
import { priceEntry } from '../../src/domain/pricing.js';
import { MAX_OPERATOR_ATTEMPTS, OPERATOR_RETRY_DELAYS_MS } from '../../src/domain/retry-schedule.js';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { apiBalance } from '../support/books.js';
import { closeTestContext, describeEachDialect, openTestContext, recharge, type TestContext } from '../support/harness.js';

/** A plain model of one account: its balance, the numbers it checked, its orders and its idempotency keys. */
interface ModelOrder {
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  number: string;
  deduction: bigint;
  attempts: number;
  dueAt: number;
}
interface Model {
  now: number;
  balance: bigint;
  checked: Set<string>;
  orders: Map<string, ModelOrder>;
  keys: Map<string, { body: string; status: number; response: string }>;
  lastKeyed?: { key: string; body: object };
}
interface Real {
  ctx: TestContext;
  key: string;
  accountId: string;
}

// Ordinary, declined, unavailable-then-fine, never answers, postpaid, fixed line.
const NUMBERS = ['0744800001', '0721800002', '0744800991', '0744800993', '0744800994', '0744800990', '0212345678'];
const VALID = new Set(NUMBERS.slice(0, 5));
const msisdn = (n: string) => `40${n.slice(1)}`;
const price = (amount: number, fast: boolean) =>
  priceEntry({ amount: BigInt(Math.round(amount * 100)), fast, fastFee: 50n, eurRon: 49_773n, vat: 21n, accountCurrency: 'RON' }).deduction;
const bounds = (n: string) => (n.startsWith('0744') ? [1, 200] : [5, 100]);

async function balanceOf(r: Real) {
  return BigInt(Math.round((await apiBalance(r.ctx, r.key)) * 100));
}

async function compare(m: Model, r: Real) {
  expect(await balanceOf(r)).toBe(m.balance);
  const rows = await r.ctx.deps.store.db.selectFrom('orders').select(['id', 'status']).where('account_id', '=', r.accountId).execute();
  expect(rows).toHaveLength(m.orders.size);
  for (const row of rows) {
    const expected = m.orders.get(row.id)?.status;
    expect(row.status === 'PROCESSING' ? 'PENDING' : row.status, row.id).toBe(expected);
  }
}

class Deposit implements fc.AsyncCommand<Model, Real> {
  constructor(readonly cents: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await addDeposit(r.ctx.deps, { accountId: r.accountId, amount: (this.cents / 100).toFixed(2) });
    m.balance += BigInt(this.cents);
    await compare(m, r);
  }
  toString = () => `deposit ${this.cents}`;
}

class Check implements fc.AsyncCommand<Model, Real> {
  constructor(readonly number: string) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const body = (await r.ctx.call(r.key, { method: 'POST', url: '/v1/check-number', payload: { phone_number: this.number } })).json();
    expect(body.isValid).toBe(VALID.has(this.number));
    if (body.isValid) m.checked.add(this.number);
  }
  toString = () => `check ${this.number}`;
}

class Recharge implements fc.AsyncCommand<Model, Real> {
  constructor(readonly entries: Array<{ number: string; amount: number; fast: boolean }>, readonly key?: string) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const body = { recharges: this.entries.map((e) => ({ phone_number: e.number, amount: e.amount, fast_recharge: e.fast })) };
    const response = await recharge(r.ctx, r.key, body, this.key ? { 'idempotency-key': this.key } : {});
    const invalid = this.entries.some((e) => !VALID.has(e.number) || !m.checked.has(e.number) || e.amount < bounds(e.number)[0]! || e.amount > bounds(e.number)[1]!);
    const cost = this.entries.reduce((sum, e) => sum + price(e.amount, e.fast), 0n);
    const expected = invalid ? 422 : cost > m.balance ? 402 : 201;
    tally(`${expected}${this.entries.some((e) => e.fast) ? ' fast' : ''}`);
    expect(response.statusCode, response.body).toBe(expected);
    if (expected === 201) {
      m.balance -= cost;
      response.json().orderSummary.forEach((o: { rechargeId: string }, i: number) =>
        m.orders.set(o.rechargeId, { status: 'PENDING', number: this.entries[i]!.number, deduction: price(this.entries[i]!.amount, this.entries[i]!.fast), attempts: 0, dueAt: m.now }),
      );
      if (this.key) {
        m.keys.set(this.key, { body: JSON.stringify(body), status: 201, response: response.body });
        m.lastKeyed = { key: this.key, body };
      }
    }
    await compare(m, r);
  }
  toString = () => `recharge ${JSON.stringify(this.entries)}${this.key ? ` key ${this.key}` : ''}`;
}

class Replay implements fc.AsyncCommand<Model, Real> {
  constructor(readonly differentBody: boolean) {}
  check = (m: Readonly<Model>) => m.lastKeyed !== undefined;
  async run(m: Model, r: Real) {
    const { key, body } = m.lastKeyed!;
    const sent = this.differentBody ? { ...body, fast_recharge: true } : body;
    const response = await recharge(r.ctx, r.key, sent, { 'idempotency-key': key });
    if (this.differentBody) {
      expect(response.statusCode).toBe(422);
      expect(response.json().code).toBe('idempotency_key_reused');
    } else {
      expect(response.statusCode).toBe(201);
      expect(response.headers['idempotent-replayed']).toBe('true');
      expect(response.body).toBe(m.keys.get(key)!.response);
    }
    await compare(m, r);
  }
  toString = () => `replay${this.differentBody ? ' with another body' : ''}`;
}

class WorkerStep implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    await createFulfilmentWorker(r.ctx.deps, createUpstreams(r.ctx.deps), { batchSize: 1000 }).runOnce();
    for (const order of m.orders.values()) {
      if (order.status !== 'PENDING' || order.dueAt > m.now) continue;
      order.attempts++;
      const suffix = order.number.slice(-3);
      const retry = (suffix === '993' && order.attempts === 1) || suffix === '994';
      if (retry && order.attempts < MAX_OPERATOR_ATTEMPTS) order.dueAt = m.now + OPERATOR_RETRY_DELAYS_MS[order.attempts - 1]!;
      else if (suffix === '991' || suffix === '994') {
        order.status = 'FAILED';
        m.balance += order.deduction;
      } else order.status = 'SUCCESS';
    }
    await compare(m, r);
  }
  toString = () => 'worker step';
}

class Advance implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    r.ctx.clock.advance(this.ms);
    m.now += this.ms;
  }
  toString = () => `advance ${this.ms} ms`;
}

/** How often each outcome came up, so a run that only ever exercised refusals is visible. */
const outcomes = new Map<string, number>();
const tally = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);

// Mostly well-formed entries, so that most requests pass and money moves; now and then a bad one.
const entry = fc.record({
  number: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...NUMBERS.slice(0, 5)) }, { weight: 1, arbitrary: fc.constantFrom(...NUMBERS.slice(5)) }),
  amount: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 5, max: 40 }) }, { weight: 1, arbitrary: fc.constantFrom(0.5, 4.99, 100, 200, 200.01, 12.34) }),
  fast: fc.boolean(),
});
const commands = [
  fc.integer({ min: 1, max: 200_000 }).map((c) => new Deposit(c)),
  fc.constantFrom(...NUMBERS).map((n) => new Check(n)),
  fc.tuple(fc.array(entry, { minLength: 1, maxLength: 2 }), fc.option(fc.uuid(), { nil: undefined })).map(([e, k]) => new Recharge(e, k)),
  fc.tuple(fc.array(entry, { minLength: 1, maxLength: 2 }), fc.option(fc.uuid(), { nil: undefined })).map(([e, k]) => new Recharge(e, k)),
  fc.boolean().map((d) => new Replay(d)),
  fc.constant(new WorkerStep()),
  fc.constantFrom(1_000, 5_000, 30_000, 600_000, 3_600_000).map((ms) => new Advance(ms)),
];

describeEachDialect('model-based: random sequences against the real API', (dialect) => {
  it('agrees with a simple model of balances and order states after every step', async () => {
    const ctx = await openTestContext(dialect, { TOPUP_SIMULATOR_DELAY_MS: '0', TOPUP_SIMULATOR_FAST_DELAY_MS: '0', TOPUP_EUR_RON_RATE: '4.9773', TOPUP_NUMBER_CHECK_TTL_SECONDS: '315360000', TOPUP_RATE_LIMIT_PER_MINUTE: '0' });
    try {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 60, size: '+1' }), async (cmds) => {
          const account = await ctx.account({ credit: '1000.00' });
          // All valid numbers but one are checked up front; the last one only if a Check command does it.
          const { checkNumbers } = await import('../support/harness.js');
          await checkNumbers(ctx, account.key, NUMBERS.slice(0, 4));
          const model: Model = { now: ctx.clock.now(), balance: 100_000n, checked: new Set(NUMBERS.slice(0, 4)), orders: new Map(), keys: new Map() };
          await fc.asyncModelRun(() => ({ model, real: { ctx, key: account.key, accountId: account.accountId } }), cmds);
        }),
        { numRuns: Number(process.env.MODEL_RUNS ?? 40) },
      );
    } finally {
      process.stderr.write(`model-based [${dialect}]: recharge outcomes ${JSON.stringify(Object.fromEntries(outcomes))}\n`);
      await closeTestContext(ctx);
    }
  }, 240_000);
});
