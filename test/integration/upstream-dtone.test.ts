import { afterAll, beforeAll, expect, it } from 'vitest';
import { syncProducts } from '../../src/app/catalogue.js';
import { reconcile } from '../../src/app/reconcile.js';
import { resolveOrder } from '../../src/app/review-orders.js';
import { createLogger } from '../../src/adapters/logger.js';
import { buildApp } from '../../src/http/app.js';
import { refreshBalances } from '../../src/app/upstream-float.js';
import { FIRST_LOOKUP_MS, OPERATOR_RETRY_DELAYS_MS } from '../../src/domain/retry-schedule.js';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { attemptsOf } from '../../src/store/upstream-attempts.repository.js';
import { FakeDtone } from '../fakes/dtone.js';
import { apiBalance, drain, storedOrder } from '../support/books.js';
import { checkNumbers, closeTestContext, customerOrder, describeEachDialect, FAST_SIMULATOR, openTestContext, recharge, testDeps, type TestContext } from '../support/harness.js';

const TOKEN = 'cb_0123456789abcdefghijklmnop';

// The DT One connector against a local DT One that answers as its documentation says (test/fakes).
describeEachDialect('the dtone connector', (dialect) => {
  let ctx: TestContext;
  let dtone: FakeDtone;
  let env: Record<string, string>;

  beforeAll(async () => {
    let clock: TestContext['clock'] | undefined;
    dtone = await new FakeDtone(
      { key: 'dt-key', secret: 'dt-secret' },
      [
        { id: 11, operator: 'Orange', type: 'RANGED_VALUE_RECHARGE', amount: { min: 5, max: 50, increment: 1 } },
        { id: 21, operator: 'Vodafone', type: 'FIXED_VALUE_RECHARGE', amount: 5 },
        { id: 22, operator: 'Vodafone', type: 'FIXED_VALUE_RECHARGE', amount: 10 },
        { id: 31, operator: 'Telekom', type: 'FIXED_VALUE_RECHARGE', amount: 6 },
      ],
      () => clock?.now() ?? Date.now(),
    ).start();
    env = {
      ...FAST_SIMULATOR,
      TOPUP_UPSTREAM: 'dtone',
      DTONE_API_KEY: 'dt-key',
      DTONE_API_SECRET: 'dt-secret',
      DTONE_BASE_URL: dtone.url,
      TOPUP_PUBLIC_URL: 'https://topup.example',
      TOPUP_UPSTREAM_CALLBACK_TOKEN: TOKEN,
    };
    ctx = await openTestContext(dialect, env);
    clock = ctx.clock;
    expect(await syncProducts(ctx.deps, createUpstreams(ctx.deps))).toEqual([{ connector: 'dtone', products: 4, byOperator: { orange: 1, vodafone: 2, telekom: 1 } }]);
  });
  afterAll(async () => {
    await dtone?.stop();
    if (ctx) await closeTestContext(ctx);
  });

  const worker = (operatorTimeoutMs = 5_000) => createFulfilmentWorker(ctx.deps, createUpstreams(ctx.deps), { operatorTimeoutMs });

  const order = (number: string, amount = 5) => customerOrder(ctx, number, { amount });

  it('refuses at placement an amount no product delivers, naming the nearest ones', async () => {
    const customer = await ctx.account({ credit: '500.00' });
    await checkNumbers(ctx, customer.key, ['0722800100', '0744800100']);
    const response = await recharge(ctx, customer.key, { recharges: [{ phone_number: '0722800100', amount: 7 }, { phone_number: '0744800100', amount: 7 }] });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      { arrayPosition: 0, field: 'amount', code: 'amount_not_available', message: 'No upstream delivers 7.00 EUR to vodafone numbers; the nearest amounts available: 5.00, 10.00 EUR.' },
    ]);
    expect(await apiBalance(ctx, customer.key)).toBe(500);
  });

  it('creates an async transaction with auto_confirm, the attempt as external_id, and settles it by lookup', async () => {
    const { id, key } = await order('0744800100', 12);
    await drain(worker());
    const create = dtone.requests.filter((r) => r.path === '/async/transactions').at(-1)!;
    expect(create.body).toEqual({
      external_id: id,
      product_id: 11,
      auto_confirm: true,
      credit_party_identifier: { mobile_number: '+40744800100' },
      callback_url: `https://topup.example/upstream/dtone/callback/${TOKEN}`,
      calculation_mode: 'SOURCE_AMOUNT',
      source: { unit_type: 'CURRENCY', unit: 'EUR', amount: 12 },
    });
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'PROCESSING' });
    // The sandbox completes a 1xx number after 3 s; the first lookup comes 5 s after sending.
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    const settled = await storedOrder(ctx, id);
    expect(settled).toMatchObject({ status: 'SUCCESS', operatorReference: expect.stringMatching(/^OPREF-/) });
    expect((await attemptsOf(ctx.deps.store.db, id))[0]).toMatchObject({ state: 'succeeded', cost: { amount: 1200n, currency: 'EUR' } });
    expect((await ctx.call(key, { method: 'GET', url: `/v1/account/recharges/${id}` })).json().operator_reference).toBe(settled!.operatorReference);
  });

  it('fails an invalid credit party at once, refunded, and retries an unavailable operator later', async () => {
    const invalid = await order('0722800102');
    const unavailable = await order('0722800104');
    await drain(worker());
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, invalid.id)).toMatchObject({ status: 'FAILED', failureReason: 'dtone: DECLINED-INVALID-CREDIT-PARTY' });
    expect(await apiBalance(ctx, invalid.key)).toBe(500);
    expect(await storedOrder(ctx, unavailable.id)).toMatchObject({ status: 'PENDING', failureReason: 'dtone: DECLINED-OPERATOR-CURRENTLY-UNAVAILABLE' });
    // Declined every time: each attempt is a new transaction under a new reference (the declined ones
    // released their hold), and once the retries run out the order fails, refunded.
    for (const delay of OPERATOR_RETRY_DELAYS_MS) {
      ctx.clock.advance(delay);
      await drain(worker());
      ctx.clock.advance(FIRST_LOOKUP_MS);
      await drain(worker());
    }
    expect(await storedOrder(ctx, unavailable.id)).toMatchObject({ status: 'FAILED', failureReason: 'dtone: DECLINED-OPERATOR-CURRENTLY-UNAVAILABLE' });
    expect(await apiBalance(ctx, unavailable.key)).toBe(500);
    const references = dtone.transactions.filter((t) => t.external_id.startsWith(unavailable.id)).map((t) => t.external_id);
    expect(references).toEqual([unavailable.id, ...OPERATOR_RETRY_DELAYS_MS.map((_, i) => `${unavailable.id}-${i + 2}`)]);
  });

  it('looks up, by external_id, a transaction whose answer was lost, and never creates it twice', async () => {
    const { id } = await order('0766800100', 6);
    const before = dtone.transactions.length;
    dtone.loseAnswerNext = 1;
    await drain(worker());
    expect(dtone.transactions.length).toBe(before + 1);
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'PROCESSING' });
    expect((await attemptsOf(ctx.deps.store.db, id))[0]).toMatchObject({ state: 'open', upstreamId: null });
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(dtone.requests.at(-1)?.path).toBe(`/transactions?external_id=${id}`);
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'SUCCESS' });
    expect(dtone.transactions.length).toBe(before + 1);
  });

  it('counts a hang past the deadline as unknown, then finds the top-up by lookup', async () => {
    const { id } = await order('0722800101', 10);
    dtone.hangNext = 1;
    await drain(worker(100));
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'PROCESSING' });
    expect((await attemptsOf(ctx.deps.store.db, id))[0]).toMatchObject({ state: 'open', detail: expect.stringMatching(/^no_answer: dtone did not answer/) });
    // The hung request never reached the fake's books; the lookup finds nothing and sends the same
    // attempt again: one transaction, under the attempt's reference.
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'SUCCESS' });
    expect(dtone.transactions.filter((t) => t.external_id === id)).toHaveLength(1);
  });

  it('counts an answer that never comes after DT One acted as unknown, and the lookup finds the top-up', async () => {
    const { id } = await order('0722800100', 10);
    dtone.stallAfterCreatingNext = 1;
    await drain(worker(100));
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'PROCESSING' });
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(dtone.requests.at(-1)?.path).toBe(`/transactions?external_id=${id}`);
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'SUCCESS' });
    expect(dtone.transactions.filter((t) => t.external_id === id)).toHaveLength(1);
  });

  it('looks up a reference DT One already has when the same attempt is sent again (1007001), never creating a second', async () => {
    const { id } = await order('0722800100', 5);
    const [connector] = createUpstreams(ctx.deps);
    const attempt = { reference: id, orderId: id, number: 1, connector: 'dtone', state: 'sending' as const, upstreamId: null, operatorReference: null, cost: null, detail: null, createdAt: 0, updatedAt: 0 };
    const order_ = (await storedOrder(ctx, id))!;
    expect(await connector!.send(attempt, order_, AbortSignal.timeout(5_000))).toMatchObject({ kind: 'pending' });
    const again = await connector!.send(attempt, order_, AbortSignal.timeout(5_000));
    expect(again).toMatchObject({ kind: 'pending', upstreamId: expect.any(String) });
    expect(dtone.requests.slice(-2).map((r) => r.path)).toEqual(['/async/transactions', `/transactions?external_id=${id}`]);
    expect(dtone.transactions.filter((t) => t.external_id === id)).toHaveLength(1);
    await drain(worker());
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'SUCCESS' });
  });

  it('never fails a reversed transaction by itself: it stays open for a person', async () => {
    const { id, key } = await order('0722800100', 5);
    await drain(worker());
    const transaction = dtone.transactions.find((t) => t.external_id === id)!;
    dtone.reverse(transaction.id);
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'PROCESSING' });
    expect((await attemptsOf(ctx.deps.store.db, id))[0]).toMatchObject({ state: 'open', detail: expect.stringMatching(/^dtone: REVERSED after completion/) });
    expect(await apiBalance(ctx, key)).toBe(469.88); // charged, not refunded
    await resolveOrder(ctx.deps, id, 'FAILED', 'DT One reversed it: the operator returned the money', { force: true });
  });

  it('serves orders in a process that never synced the catalogue itself (it reads the stored one)', async () => {
    const { id } = await order('0722800100', 5);
    const other = await testDeps(ctx.database.target, env, { clock: ctx.clock });
    try {
      await drain(createFulfilmentWorker(other, createUpstreams(other)));
      expect(await storedOrder(ctx, id)).toMatchObject({ status: 'PROCESSING' });
      ctx.clock.advance(FIRST_LOOKUP_MS);
      await drain(createFulfilmentWorker(other, createUpstreams(other)));
      expect(await storedOrder(ctx, id)).toMatchObject({ status: 'SUCCESS' });
    } finally {
      await other.close();
    }
  });

  it('waits on rate limits and on an empty float, resuming once the balance is topped up', async () => {
    const limited = await order('0722800100', 5);
    dtone.rateLimitNext = 1;
    await drain(worker());
    expect(await storedOrder(ctx, limited.id)).toMatchObject({ status: 'PENDING', failureReason: expect.stringMatching(/^dtone_rate_limited/) });

    const poor = await order('0722800100', 10);
    const saved = dtone.balance;
    dtone.balance = 1;
    try {
    ctx.clock.advance(OPERATOR_RETRY_DELAYS_MS[0]!);
    await drain(worker());
    expect(await storedOrder(ctx, poor.id)).toMatchObject({ status: 'PENDING', failureReason: 'dtone_insufficient_balance' });
    expect((await ctx.call(undefined, { method: 'GET', url: '/readyz' })).json().degraded).toEqual([expect.objectContaining({ connector: 'dtone' })]);
    const [float] = await refreshBalances(ctx.deps, createUpstreams(ctx.deps));
    expect(float).toMatchObject({ connector: 'dtone', available: 100n, currency: 'EUR' });
    } finally {
      dtone.balance = saved;
    }
    ctx.clock.advance(OPERATOR_RETRY_DELAYS_MS[1]!);
    await drain(worker());
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, poor.id)).toMatchObject({ status: 'SUCCESS' });
    expect(await storedOrder(ctx, limited.id)).toMatchObject({ status: 'SUCCESS' });
    expect((await ctx.call(undefined, { method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('takes a callback as a reason to look up at once, only with the right token', async () => {
    const { id } = await order('0722800100', 5);
    await drain(worker());
    ctx.clock.advance(3_000); // completed at DT One, not yet due for our lookup
    expect(await drain(worker())).toBe(0);
    const transaction = dtone.transactions.find((t) => t.external_id === id)!;
    const wrong = await ctx.call(undefined, { method: 'POST', url: '/upstream/dtone/callback/not-the-token-at-all-000000', payload: { external_id: id } });
    expect(wrong.statusCode).toBe(404);
    expect((await ctx.call(undefined, { method: 'POST', url: `/upstream/reloadly/callback/${TOKEN}`, payload: {} })).statusCode).toBe(404);
    await dtone.deliverCallbacks(); // posts to https://topup.example: unreachable here, so replay it ourselves
    const posted = dtone.callbacks.find((c) => (c.body as { id: number }).id === transaction.id)!;
    expect(posted.url).toBe(`https://topup.example/upstream/dtone/callback/${TOKEN}`);
    const heard = await ctx.call(undefined, { method: 'POST', url: `/upstream/dtone/callback/${TOKEN}`, payload: posted.body as object });
    expect(heard.statusCode).toBe(204);
    expect(await drain(worker())).toBe(1);
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'SUCCESS' });
  });

  it('never writes the callback token to the logs', async () => {
    const lines: string[] = [];
    const app = await buildApp({ ...ctx.deps, log: createLogger('debug', { write: (line: string) => void lines.push(line) }) });
    try {
      const response = await app.inject({ method: 'POST', url: `/upstream/dtone/callback/${TOKEN}`, payload: { external_id: 'nothing-of-ours' } });
      expect(response.statusCode).toBe(204);
      expect(lines.some((l) => l.includes('"url":"/upstream/:connector/callback/:token"'))).toBe(true);
      expect(lines.filter((l) => l.includes(TOKEN))).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('refuses nothing silently: wrong credentials make orders wait, saying which settings to check', async () => {
    const wrong = await openTestContext(dialect, { ...FAST_SIMULATOR, TOPUP_UPSTREAM: 'dtone', DTONE_API_KEY: 'dt-key', DTONE_API_SECRET: 'nope', DTONE_BASE_URL: dtone.url });
    try {
      await expect(syncProducts(wrong.deps, createUpstreams(wrong.deps))).rejects.toThrow(/HTTP 401/);
      await wrong.deps.store.transact(async (tx) => {
        const { replaceProducts } = await import('../../src/store/upstream-products.repository.js');
        await replaceProducts(tx, 'dtone', [{ connector: 'dtone', productId: '21', operator: 'vodafone', name: 'x', side: 'source', kind: 'fixed', amount: 500n }], 0);
      });
      await wrong.deps.catalogue.reload();
      const customer = await wrong.account({ credit: '100.00' });
      await checkNumbers(wrong, customer.key, ['0722800100']);
      const id = (await recharge(wrong, customer.key, { recharges: [{ phone_number: '0722800100', amount: 5 }] })).json().orderSummary[0].rechargeId;
      await drain(createFulfilmentWorker(wrong.deps, createUpstreams(wrong.deps)));
      expect(await storedOrder(wrong, id)).toMatchObject({ status: 'PENDING', failureReason: expect.stringContaining('check DTONE_API_KEY and DTONE_API_SECRET') });
    } finally {
      await closeTestContext(wrong);
    }
  });

  it('reconciles our attempts with DT One\'s transactions, and finds a reversal and a stray transaction', async () => {
    const { id } = await order('0722800100', 5);
    await drain(worker());
    ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker());
    expect(await storedOrder(ctx, id)).toMatchObject({ status: 'SUCCESS' });
    const [connector] = createUpstreams(ctx.deps);
    const period = { from: ctx.clock.now() - 7 * 86_400_000, to: ctx.clock.now() + 86_400_000 };
    const clean = await reconcile(ctx.deps, connector!, period);
    expect(clean.mismatches).toEqual([]);
    expect(clean.theirs).toBe(dtone.transactions.length);

    const transaction = dtone.transactions.find((t) => t.external_id === id)!;
    dtone.reverse(transaction.id);
    const stray = await fetch(`${dtone.url}/async/transactions`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('dt-key:dt-secret').toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ external_id: 'not-ours-1', product_id: 21, auto_confirm: true, credit_party_identifier: { mobile_number: '+40722800100' } }),
    });
    expect(stray.status).toBe(201);
    const found = await reconcile(ctx.deps, connector!, period);
    expect(found.mismatches).toEqual([
      { kind: 'status_differs', reference: id, orderId: id, upstreamId: String(transaction.id), ours: 'succeeded', theirs: 'failed' },
      { kind: 'unknown_upstream_transaction', reference: 'not-ours-1', orderId: null, upstreamId: expect.any(String), ours: 'no attempt', theirs: 'pending' },
    ]);
  });
});
