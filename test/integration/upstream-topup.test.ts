import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claimOrders, startAttempt } from '../../src/app/fulfil-orders.js';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { attemptsOf } from '../../src/store/upstream-attempts.repository.js';
import { FIRST_LOOKUP_MS, OPERATOR_RETRY_DELAYS_MS, SLOWEST_LOOKUP_MS } from '../../src/domain/retry-schedule.js';
import { apiBalance, drain, orderCount, storedOrder } from '../support/books.js';
import { checkNumbers, closeTestContext, customerOrder, describeEachDialect, FAST_SIMULATOR, openTestContext, recharge, type TestAccount, type TestContext } from '../support/harness.js';
import { HttpProxy } from '../support/http-proxy.js';
import { addDeposit } from '../../src/app/deposits.js';
import { databaseEnv, topup } from '../support/cli.js';

// A reseller instance of this service whose upstream is a wholesale instance of this service, both real:
// the wholesale one listens on a port and the reseller's `topup` connector talks HTTP to it, through a
// proxy that can lose the wholesale instance's answers, or take it down and bring it back.
describeEachDialect('the topup connector, reseller over wholesale', (dialect) => {
  let wholesale: TestContext;
  let reseller: TestContext;
  let proxy: HttpProxy;
  let resellerAtWholesale: TestAccount;

  beforeAll(async () => {
    wholesale = await openTestContext(dialect, FAST_SIMULATOR);
    await wholesale.app.listen({ port: 0, host: '127.0.0.1' });
    proxy = await new HttpProxy(`http://127.0.0.1:${(wholesale.app.server.address() as AddressInfo).port}`).start();
    resellerAtWholesale = await wholesale.account({ name: 'reseller', credit: '10000.00', currency: 'EUR' });
    reseller = await openTestContext(dialect, {
      ...FAST_SIMULATOR,
      TOPUP_UPSTREAM: 'topup',
      TOPUP_UPSTREAM_TOPUP_URL: `http://127.0.0.1:${proxy.port}`,
      TOPUP_UPSTREAM_TOPUP_KEY: resellerAtWholesale.key,
    });
  });
  afterAll(async () => {
    await proxy?.down();
    if (reseller) await closeTestContext(reseller);
    if (wholesale) await closeTestContext(wholesale);
  });

  const resellerWorker = () => createFulfilmentWorker(reseller.deps, createUpstreams(reseller.deps), { operatorTimeoutMs: 5_000 });
  const wholesaleWorker = () => createFulfilmentWorker(wholesale.deps, createUpstreams(wholesale.deps));
  const upstreamOrders = () => orderCount(wholesale, resellerAtWholesale.accountId);

  const resellerOrder = (number: string) => customerOrder(reseller, number);

  /** Lets the wholesale instance perform what it holds, then the reseller look its attempts up. */
  async function settleBoth() {
    await drain(wholesaleWorker());
    reseller.clock.advance(SLOWEST_LOOKUP_MS);
    await drain(resellerWorker());
  }

  it('fulfils an order through the wholesale instance: placed once with the attempt as Idempotency-Key, looked up, settled', async () => {
    const before = await upstreamOrders();
    const { id, key } = await resellerOrder('0744610001');
    await drain(resellerWorker());
    // Accepted upstream, performed there later: PROCESSING here, with the upstream's id and cost.
    expect(await storedOrder(reseller, id)).toMatchObject({ status: 'PROCESSING' });
    const [attempt] = await attemptsOf(reseller.deps.store.db, id);
    expect(attempt).toMatchObject({ reference: id, connector: 'topup', state: 'open', cost: { amount: 605n, currency: 'EUR' } });
    const upstream = await storedOrder(wholesale, attempt!.upstreamId!);
    expect(upstream).toMatchObject({ accountId: resellerAtWholesale.accountId, documentId: id, msisdn: '40744610001', amount: 500n, status: 'PENDING' });
    expect(JSON.parse(upstream!.passthrough!)).toEqual({ document_id: id, attempt: id });

    await settleBoth();
    expect(await storedOrder(reseller, id)).toMatchObject({ status: 'SUCCESS', operatorReference: expect.stringMatching(/^SIM-/) });
    expect(await upstreamOrders()).toBe(before + 1);
    const record = (await reseller.call(key, { method: 'GET', url: `/v1/account/recharges/${id}` })).json();
    expect(record).toMatchObject({ recharge_status: 'SUCCESS', operator_reference: expect.stringMatching(/^SIM-/) });
    expect(await apiBalance(reseller, key)).toBe(469.88);
    expect(await apiBalance(wholesale, resellerAtWholesale.key)).toBe(10000 - 6.05);
  });

  it('fails a declined number on both instances, with a refund on both', async () => {
    const wholesaleBalance = await apiBalance(wholesale, resellerAtWholesale.key);
    const { id, key } = await resellerOrder('0744610991');
    await drain(resellerWorker());
    await settleBoth();
    expect(await storedOrder(reseller, id)).toMatchObject({ status: 'FAILED', failureReason: 'upstream_failed: operator_declined' });
    const [attempt] = await attemptsOf(reseller.deps.store.db, id);
    expect(await storedOrder(wholesale, attempt!.upstreamId!)).toMatchObject({ status: 'FAILED', failureReason: 'operator_declined' });
    expect(await apiBalance(reseller, key)).toBe(500);
    expect(await apiBalance(wholesale, resellerAtWholesale.key)).toBe(wholesaleBalance);
  });

  it('keeps an order whose answer was lost open, looks it up, and never places it twice', async () => {
    const before = await upstreamOrders();
    const { id, key } = await resellerOrder('0744610002');
    proxy.loseRechargeAnswers = true;
    try {
      await drain(resellerWorker());
    } finally {
      proxy.loseRechargeAnswers = false;
    }
    // Placed upstream, but the connection dropped before the answer: unknown here, never a failure.
    expect(await upstreamOrders()).toBe(before + 1);
    expect(await storedOrder(reseller, id)).toMatchObject({ status: 'PROCESSING' });
    expect(await attemptsOf(reseller.deps.store.db, id)).toEqual([
      expect.objectContaining({ reference: id, state: 'open', upstreamId: null, detail: expect.stringMatching(/^no_answer: recharge/) }),
    ]);
    // The lookup finds it by document_id: no second order, and the upstream's id is learnt.
    reseller.clock.advance(FIRST_LOOKUP_MS);
    await drain(resellerWorker());
    expect(await upstreamOrders()).toBe(before + 1);
    expect((await attemptsOf(reseller.deps.store.db, id))[0]).toMatchObject({ state: 'open', upstreamId: expect.any(String) });
    await settleBoth();
    expect(await storedOrder(reseller, id)).toMatchObject({ status: 'SUCCESS' });
    expect(await upstreamOrders()).toBe(before + 1);
    expect(await apiBalance(reseller, key)).toBe(469.88);
  });

  it('waits while the wholesale instance is down, then places the order exactly once', async () => {
    const before = await upstreamOrders();
    const { id } = await resellerOrder('0744610004');
    await proxy.down();
    try {
      await drain(resellerWorker());
      expect(await storedOrder(reseller, id)).toMatchObject({ status: 'PENDING', failureReason: expect.stringMatching(/^upstream_unreachable: ECONNREFUSED/) });
      reseller.clock.advance(OPERATOR_RETRY_DELAYS_MS[0]!);
      await drain(resellerWorker());
      expect(await storedOrder(reseller, id)).toMatchObject({ status: 'PENDING' });
    } finally {
      await proxy.up();
    }
    reseller.clock.advance(OPERATOR_RETRY_DELAYS_MS[1]!);
    await drain(resellerWorker());
    await settleBoth();
    expect(await storedOrder(reseller, id)).toMatchObject({ status: 'SUCCESS' });
    expect(await upstreamOrders()).toBe(before + 1);
    expect((await attemptsOf(reseller.deps.store.db, id)).map((a) => [a.reference, a.state])).toEqual([
      [id, 'not_performed'],
      [`${id}-2`, 'not_performed'],
      [`${id}-3`, 'succeeded'],
    ]);
  });

  it('never places twice when the worker died between sending and recording: the next one finds the order by document_id', async () => {
    const before = await upstreamOrders();
    const { id } = await resellerOrder('0744610003');
    // A worker claims the order, records its attempt, sends it — and dies before recording the answer.
    const [order] = await claimOrders(reseller.deps, 'worker_dead', 10, 15_000);
    const attempt = await startAttempt(reseller.deps, order!, 'worker_dead', 'topup', 1);
    const [topup] = createUpstreams(reseller.deps);
    expect(await topup!.send(attempt!, order!, AbortSignal.timeout(5_000))).toMatchObject({ kind: 'pending' });
    expect(await upstreamOrders()).toBe(before + 1);
    // Its lease runs out; another worker takes the order over and looks the attempt up first.
    reseller.clock.advance(15_001);
    await drain(resellerWorker());
    expect(await upstreamOrders()).toBe(before + 1);
    expect((await attemptsOf(reseller.deps.store.db, id))[0]).toMatchObject({ state: 'open', upstreamId: expect.any(String) });
    await settleBoth();
    expect(await storedOrder(reseller, id)).toMatchObject({ status: 'SUCCESS' });
    expect(await upstreamOrders()).toBe(before + 1);
  });

  it('holds orders while our credit at the wholesale instance is spent, reports the balance, and resumes once it is topped up', async () => {
    const broke = await wholesale.account({ name: 'broke reseller', credit: '1.00', currency: 'EUR' });
    const settings = { TOPUP_UPSTREAM: 'topup', TOPUP_UPSTREAM_TOPUP_URL: `http://127.0.0.1:${proxy.port}`, TOPUP_UPSTREAM_TOPUP_KEY: broke.key };
    const poor = await openTestContext(dialect, { ...FAST_SIMULATOR, ...settings });
    try {
      const customer = await poor.account({ credit: '500.00' });
      await checkNumbers(poor, customer.key, ['0744610005']);
      const id = (await recharge(poor, customer.key, { recharges: [{ phone_number: '0744610005', amount: 5 }] })).json().orderSummary[0].rechargeId as string;
      const worker = () => createFulfilmentWorker(poor.deps, createUpstreams(poor.deps));
      for (const delay of OPERATOR_RETRY_DELAYS_MS) {
        await drain(worker());
        expect(await storedOrder(poor, id)).toMatchObject({ status: 'PENDING', failureReason: expect.stringMatching(/^upstream_insufficient_funds/) });
        poor.clock.advance(delay);
      }
      await drain(worker());
      expect(await storedOrder(poor, id)).toMatchObject({ status: 'PENDING' }); // past every retry, still waiting
      expect((await poor.call(undefined, { method: 'GET', url: '/readyz' })).json().degraded).toEqual([expect.objectContaining({ check: 'upstream_float', connector: 'topup' })]);
      const env = { ...databaseEnv(poor.database.target), ...settings };
      const before = await topup(env, 'upstream', 'balance', '--json');
      expect(JSON.parse(before.stdout)).toEqual({
        data: [{ connector: 'topup', available: 1, currency: 'EUR', checked_at: expect.any(String), out_of_float_since: expect.any(String) }],
      });
      await addDeposit(wholesale.deps, { accountId: broke.accountId, amount: '100.00' });
      poor.clock.advance(OPERATOR_RETRY_DELAYS_MS.at(-1)!);
      await drain(worker());
      await drain(wholesaleWorker());
      poor.clock.advance(SLOWEST_LOOKUP_MS);
      await drain(worker());
      expect(await storedOrder(poor, id)).toMatchObject({ status: 'SUCCESS' });
      expect((await poor.call(undefined, { method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
      const after = JSON.parse((await topup(env, 'upstream', 'balance', '--json')).stdout);
      expect(after.data[0]).toMatchObject({ available: 94.95, out_of_float_since: null });
    } finally {
      await closeTestContext(poor);
    }
  });

  it('reconciles our attempts with the wholesale instance\'s orders, and finds planted differences', async () => {
    const env = { ...databaseEnv(reseller.database.target), TOPUP_UPSTREAM: 'topup', TOPUP_UPSTREAM_TOPUP_URL: `http://127.0.0.1:${proxy.port}`, TOPUP_UPSTREAM_TOPUP_KEY: resellerAtWholesale.key };
    const window = ['--from', new Date(Date.now() - 2 * 86_400_000).toISOString(), '--to', new Date(Date.now() + 2 * 86_400_000).toISOString()];
    await resellerOrder('0744610008');
    await drain(resellerWorker());
    await settleBoth();
    const clean = await topup(env, 'reconcile', '--connector', 'topup', ...window, '--json');
    expect([clean.code, JSON.parse(clean.stdout)]).toEqual([0, expect.objectContaining({ ok: true, connector: 'topup', mismatches: [] })]);
    expect(JSON.parse(clean.stdout).theirs).toBeGreaterThanOrEqual(1);

    // Planted: an order placed at the wholesale instance behind the reseller's back, and an attempt we
    // recorded as failed that the wholesale instance performed.
    await checkNumbers(wholesale, resellerAtWholesale.key, ['0744610009']);
    const stray = (await recharge(wholesale, resellerAtWholesale.key, { recharges: [{ phone_number: '0744610009', amount: 5 }] })).json().orderSummary[0].rechargeId;
    const { id } = await resellerOrder('0744610010');
    await drain(resellerWorker());
    await settleBoth();
    const [attempt] = await attemptsOf(reseller.deps.store.db, id);
    await reseller.deps.store.db.updateTable('upstream_attempts').set({ state: 'failed' }).where('reference', '=', attempt!.reference).execute();
    try {
      const found = await topup(env, 'reconcile', '--connector', 'topup', ...window, '--json');
      expect(found.code).toBe(1);
      expect(JSON.parse(found.stdout).mismatches).toEqual(
        expect.arrayContaining([
          { kind: 'unknown_upstream_transaction', reference: null, order_id: null, upstream_id: stray, ours: 'no attempt', theirs: 'succeeded' },
          { kind: 'status_differs', reference: id, order_id: id, upstream_id: attempt!.upstreamId, ours: 'failed', theirs: 'succeeded' },
        ]),
      );
      expect(JSON.parse(found.stdout).mismatches).toHaveLength(2);
    } finally {
      await reseller.deps.store.db.updateTable('upstream_attempts').set({ state: 'succeeded' }).where('reference', '=', attempt!.reference).execute();
    }
    const unknown = await topup(env, 'reconcile', '--connector', 'dtone', '--json');
    expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'topup: no connector dtone in TOPUP_UPSTREAM (configured: topup)']);
  });

  it('takes the wholesale instance\'s webhook as a reason to look the attempt up at once', async () => {
    const token = 'topup_callback_token_0123456789';
    const settings = {
      TOPUP_UPSTREAM: 'topup',
      TOPUP_UPSTREAM_TOPUP_URL: `http://127.0.0.1:${proxy.port}`,
      TOPUP_UPSTREAM_TOPUP_KEY: resellerAtWholesale.key,
      TOPUP_PUBLIC_URL: 'https://reseller.example',
      TOPUP_UPSTREAM_CALLBACK_TOKEN: token,
    };
    const heard = await openTestContext(dialect, { ...FAST_SIMULATOR, ...settings });
    try {
      const customer = await heard.account({ credit: '50.00' });
      await checkNumbers(heard, customer.key, ['0744610011']);
      const id = (await recharge(heard, customer.key, { recharges: [{ phone_number: '0744610011', amount: 5 }] })).json().orderSummary[0].rechargeId;
      const worker = () => createFulfilmentWorker(heard.deps, createUpstreams(heard.deps));
      await drain(worker());
      await drain(wholesaleWorker());
      expect(await drain(worker())).toBe(0); // performed upstream, our lookup not yet due
      // The wholesale instance's webhook event for its order (the body it signs and sends).
      const [attempt] = await attemptsOf(heard.deps.store.db, id);
      const upstreamOrder = (await wholesale.call(resellerAtWholesale.key, { method: 'GET', url: `/v1/account/recharges/${attempt!.upstreamId}` })).json();
      const event = { type: 'recharge.succeeded', timestamp: new Date().toISOString(), data: upstreamOrder };
      expect((await heard.call(undefined, { method: 'POST', url: `/upstream/topup/callback/${token}x`, payload: event })).statusCode).toBe(404);
      expect((await heard.call(undefined, { method: 'POST', url: `/upstream/topup/callback/${token}`, payload: event })).statusCode).toBe(204);
      expect(await drain(worker())).toBe(1);
      expect(await storedOrder(heard, id)).toMatchObject({ status: 'SUCCESS' });
    } finally {
      await closeTestContext(heard);
    }
  });
});
