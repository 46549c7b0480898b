import { afterAll, beforeAll, expect, it } from 'vitest';
import { syncProducts } from '../../src/app/catalogue.js';
import { reconcile } from '../../src/app/reconcile.js';
import { refreshBalances } from '../../src/app/upstream-float.js';
import { FIRST_LOOKUP_MS, OPERATOR_RETRY_DELAYS_MS } from '../../src/domain/retry-schedule.js';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { attemptsOf } from '../../src/store/upstream-attempts.repository.js';
import { FakeReloadly } from '../fakes/reloadly.js';
import { apiBalance, drain, storedOrder } from '../support/books.js';
import { checkNumbers, closeTestContext, customerOrder, describeEachDialect, FAST_SIMULATOR, openTestContext, recharge, type TestContext } from '../support/harness.js';

// The Reloadly connector against a local Reloadly that answers as its documentation says (test/fakes).
describeEachDialect('the reloadly connector', (dialect) => {
  let ctx: TestContext;
  let reloadly: FakeReloadly;
  // One set of connectors for the suite, as a worker process has: the token is cached in it.
  let upstreams: ReturnType<typeof createUpstreams>;

  beforeAll(async () => {
    let clock: TestContext['clock'] | undefined;
    reloadly = await new FakeReloadly({ id: 'rl-id', secret: 'rl-secret' }, () => clock?.now() ?? Date.now()).start();
    ctx = await openTestContext(dialect, {
      ...FAST_SIMULATOR,
      TOPUP_UPSTREAM: 'reloadly',
      RELOADLY_CLIENT_ID: 'rl-id',
      RELOADLY_CLIENT_SECRET: 'rl-secret',
      RELOADLY_AUTH_URL: reloadly.authUrl,
      RELOADLY_BASE_URL: reloadly.url,
    });
    upstreams = createUpstreams(ctx.deps);
    clock = ctx.clock;
    // Orange 5–50 EUR to the cent, Vodafone 5, 10 and 15 EUR; Telekom sells no EUR amounts through it.
    expect(await syncProducts(ctx.deps, upstreams)).toEqual([{ connector: 'reloadly', products: 4, byOperator: { orange: 1, vodafone: 3 } }]);
  });
  afterAll(async () => {
    await reloadly?.stop();
    if (ctx) await closeTestContext(ctx);
  });

  const worker = (operatorTimeoutMs = 5_000) => createFulfilmentWorker(ctx.deps, upstreams, { operatorTimeoutMs });

  const order = (number: string, amount = 5) => customerOrder(ctx, number, { amount });

  it('tops up asynchronously in EUR with the attempt as customIdentifier, one cached token, and settles by status', async () => {
    const a = await order('0744900001', 10);
    const b = await order('0744900002', 7.5);
    await drain(worker());
    const topups = reloadly.requests.filter((r) => r.path === '/topups-async');
    expect(topups.map((r) => r.body)).toEqual(
      expect.arrayContaining([
        { operatorId: 535, amount: 10, useLocalAmount: true, customIdentifier: a.id, recipientPhone: { countryCode: 'RO', number: '40744900001' } },
        { operatorId: 535, amount: 7.5, useLocalAmount: true, customIdentifier: b.id, recipientPhone: { countryCode: 'RO', number: '40744900002' } },
      ]),
    );
    expect(topups.every((r) => r.accept === 'application/com.reloadly.topups-v1+json' && r.authorization === 'Bearer tok_1')).toBe(true);
    expect(reloadly.tokensIssued).toBe(1);
    expect(reloadly.requests.find((r) => r.path === '/oauth/token')?.body).toEqual({ client_id: 'rl-id', client_secret: 'rl-secret', grant_type: 'client_credentials', audience: reloadly.url });
    expect(await storedOrder(ctx, a.id)).toMatchObject({ status: 'PROCESSING' });
    reloadly.settle();
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, a.id)).toMatchObject({ status: 'SUCCESS', operatorReference: expect.stringMatching(/^RLD-OP-/) });
    expect((await attemptsOf(ctx.deps.store.db, a.id))[0]).toMatchObject({ state: 'succeeded', cost: { amount: 1000n, currency: 'EUR' } });
    expect(await storedOrder(ctx, b.id)).toMatchObject({ status: 'SUCCESS' });
  });

  it('renews an expired token once and carries on', async () => {
    const { id } = await order('0744900003');
    reloadly.expireTokens();
    await drain(worker());
    expect(reloadly.tokensIssued).toBe(2);
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'PROCESSING' });
    reloadly.settle();
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'SUCCESS' });
  });

  it('fails a refunded top-up and refunds the customer', async () => {
    const { id, key } = await order('0744900991');
    await drain(worker());
    reloadly.settle();
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'FAILED', failureReason: 'reloadly: REFUNDED' });
    expect(await apiBalance(ctx, key)).toBe(500);
  });

  it('refuses at placement an amount Reloadly does not sell, and at send time one the detected operator does not sell', async () => {
    const customer = await ctx.account({ credit: '500.00' });
    await checkNumbers(ctx, customer.key, ['0744900004', '0722900004', '0766900004']);
    const refused = await recharge(ctx, customer.key, {
      recharges: [
        { phone_number: '0744900004', amount: 60 },
        { phone_number: '0722900004', amount: 7 },
        { phone_number: '0766900004', amount: 5 },
      ],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual([
      { arrayPosition: 0, field: 'amount', code: 'amount_not_available', message: 'No upstream delivers 60.00 EUR to orange numbers; the nearest amounts available: 50.00 EUR.' },
      { arrayPosition: 1, field: 'amount', code: 'amount_not_available', message: 'No upstream delivers 7.00 EUR to vodafone numbers; the nearest amounts available: 5.00, 10.00, 15.00 EUR.' },
      { arrayPosition: 2, field: 'amount', code: 'amount_not_available', message: 'No upstream delivers top-ups to telekom numbers right now.' },
    ]);
    // A number Reloadly detects under an operator that does not sell the amount: refused before sending.
    const { id } = await order('0744900012', 5);
    const stored = (await storedOrder(ctx, id))!;
    const attempt = { reference: id, orderId: id, number: 1, connector: 'reloadly', state: 'sending' as const, upstreamId: null, operatorReference: null, cost: null, detail: null, createdAt: 0, updatedAt: 0 };
    const before = reloadly.topups.length;
    const answer = await upstreams[0]!.send(attempt, { ...stored, amount: 6000n }, AbortSignal.timeout(5_000));
    expect(answer).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^reloadly_amount_not_available/) });
    expect(reloadly.topups.length).toBe(before);
    await drain(worker());
    reloadly.settle();
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'SUCCESS' });
  });

  it('finds a top-up whose answer was lost by customIdentifier, and a resend is refused as a duplicate, never doubled', async () => {
    const { id } = await order('0744900005');
    reloadly.loseAnswerNext = 1;
    await drain(worker());
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'PROCESSING' });
    expect(reloadly.topups.filter((t) => t.customIdentifier === id)).toHaveLength(1);
    reloadly.settle();
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(reloadly.requests.at(-1)?.path).toBe(`/topups/reports/transactions?customIdentifier=${id}`);
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'SUCCESS' });
    expect(reloadly.topups.filter((t) => t.customIdentifier === id)).toHaveLength(1);
  });

  it('looks up a customIdentifier Reloadly already has when the same attempt is sent again, never topping up twice', async () => {
    const { id } = await order('0744900010');
    const attempt = { reference: id, orderId: id, number: 1, connector: 'reloadly', state: 'sending' as const, upstreamId: null, operatorReference: null, cost: null, detail: null, createdAt: 0, updatedAt: 0 };
    const stored = (await storedOrder(ctx, id))!;
    expect(await upstreams[0]!.send(attempt, stored, AbortSignal.timeout(5_000))).toMatchObject({ kind: 'pending' });
    expect(await upstreams[0]!.send(attempt, stored, AbortSignal.timeout(5_000))).toMatchObject({ kind: 'pending', upstreamId: expect.any(String) });
    expect(reloadly.requests.at(-1)?.path).toBe(`/topups/reports/transactions?customIdentifier=${id}`);
    expect(reloadly.topups.filter((t) => t.customIdentifier === id)).toHaveLength(1);
    await drain(worker());
    reloadly.settle();
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'SUCCESS' });
  });

  it('counts a hang as unknown: the attempt stays open, is looked up, and is sent again under its customIdentifier', async () => {
    const hung = await order('0744900006');
    reloadly.hangNext = 1;
    await drain(worker(100));
    // Past the deadline nothing is assumed, not even that nothing left: the attempt stays open.
    expect(await storedOrder(ctx, hung.id)).toMatchObject({ status: 'PROCESSING' });
    expect((await attemptsOf(ctx.deps.store.db, hung.id))[0]).toMatchObject({ state: 'open', detail: expect.stringMatching(/^no_answer: reloadly did not answer/) });
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    reloadly.settle();
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, hung.id)).toMatchObject({ status: 'SUCCESS' });
    expect(reloadly.topups.filter((t) => t.customIdentifier === hung.id)).toHaveLength(1);
  });

  it('waits on a rate limit and on an empty balance, and resumes', async () => {
    const limited = await order('0744900007');
    reloadly.rateLimitNext = 1;
    await drain(worker());
    expect(await storedOrder(ctx, limited.id)).toMatchObject({ status: 'PENDING', failureReason: expect.stringMatching(/^reloadly_rate_limited/) });
    ctx.clock.advance(OPERATOR_RETRY_DELAYS_MS[0]!);
    await drain(worker());
    reloadly.settle();
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, limited.id)).toMatchObject({ status: 'SUCCESS' });

    const poor = await order('0744900008');
    const saved = reloadly.balance;
    reloadly.balance = 1;
    try {
      await drain(worker());
      expect(await storedOrder(ctx, poor.id)).toMatchObject({ status: 'PENDING', failureReason: 'reloadly_insufficient_balance' });
      const [float] = await refreshBalances(ctx.deps, upstreams);
      expect(float).toMatchObject({ connector: 'reloadly', available: 100n, currency: 'EUR', outOfFloatSince: expect.any(Number) });
    } finally {
      reloadly.balance = saved;
    }
    ctx.clock.advance(OPERATOR_RETRY_DELAYS_MS[0]!);
    await drain(worker());
    reloadly.settle();
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, poor.id)).toMatchObject({ status: 'SUCCESS' });
  });

  it('reconciles our attempts with Reloadly\'s transaction reports, and finds a top-up that is not ours', async () => {
    const period = { from: ctx.clock.now() - 7 * 86_400_000, to: ctx.clock.now() + 86_400_000 };
    const clean = await reconcile(ctx.deps, upstreams[0]!, period);
    expect(clean.mismatches).toEqual([]);
    expect(clean.theirs).toBe(reloadly.topups.length);
    reloadly.stray('someone-else-1');
    const found = await reconcile(ctx.deps, upstreams[0]!, period);
    expect(found.mismatches).toEqual([
      { kind: 'unknown_upstream_transaction', reference: 'someone-else-1', orderId: null, upstreamId: expect.any(String), ours: 'no attempt', theirs: 'succeeded' },
    ]);
    expect(reloadly.requests.at(-1)?.path).toMatch(/^\/topups\/reports\/transactions\?startDate=\d{4}-\d\d-\d\d%20\d\d%3A\d\d%3A\d\d&endDate=.*&page=1&size=200$/);
  });

  it('takes a webhook naming a transaction as a reason to look it up at once', async () => {
    const callbacks = await openTestContext(dialect, {
      ...FAST_SIMULATOR,
      TOPUP_UPSTREAM: 'reloadly',
      RELOADLY_CLIENT_ID: 'rl-id',
      RELOADLY_CLIENT_SECRET: 'rl-secret',
      RELOADLY_AUTH_URL: reloadly.authUrl,
      RELOADLY_BASE_URL: reloadly.url,
      TOPUP_PUBLIC_URL: 'https://topup.example',
      TOPUP_UPSTREAM_CALLBACK_TOKEN: 'rl_callback_token_0123456789',
    });
    try {
      await syncProducts(callbacks.deps, createUpstreams(callbacks.deps));
      const customer = await callbacks.account({ credit: '50.00' });
      await checkNumbers(callbacks, customer.key, ['0744900009']);
      const id = (await recharge(callbacks, customer.key, { recharges: [{ phone_number: '0744900009', amount: 5 }] })).json().orderSummary[0].rechargeId;
      const mine = createUpstreams(callbacks.deps);
      await drain(createFulfilmentWorker(callbacks.deps, mine));
      reloadly.settle();
      expect(await drain(createFulfilmentWorker(callbacks.deps, mine))).toBe(0); // not yet due
      const posted = await callbacks.call(undefined, { method: 'POST', url: '/upstream/reloadly/callback/rl_callback_token_0123456789', payload: { type: 'airtime_transaction.status', data: { customIdentifier: id } } });
      expect(posted.statusCode).toBe(204);
      expect(await drain(createFulfilmentWorker(callbacks.deps, mine))).toBe(1);
      expect(await storedOrder(callbacks, id)).toMatchObject({ status: 'SUCCESS' });
    } finally {
      await closeTestContext(callbacks);
    }
  });
});
