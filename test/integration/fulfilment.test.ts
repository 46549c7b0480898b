import { pino } from 'pino';
import { expect, it } from 'vitest';
import { claimOrders, recordAnswer, startAttempt } from '../../src/app/fulfil-orders.js';
import type { NotFound, UpstreamAnswer, UpstreamConnector } from '../../src/app/upstream.js';
import { FIRST_LOOKUP_MS, SLOWEST_LOOKUP_MS, MAX_OPERATOR_ATTEMPTS, OPERATOR_RETRY_DELAYS_MS } from '../../src/domain/retry-schedule.js';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { loadConfig } from '../../src/config.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { simulatedTopupCounts } from '../../src/store/simulator.repository.js';
import { attemptsOf } from '../../src/store/upstream-attempts.repository.js';
import { apiBalance as balance, drain, expectLedgerMatchesBalance as ledgerMatchesBalance, storedOrder as order } from '../support/books.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext, type TestContext } from '../support/harness.js';

async function place(ctx: TestContext, numbers: string[], options: { credit?: string; fast?: boolean } = {}) {
  const account = await ctx.account({ credit: options.credit ?? '1000.00' });
  await checkNumbers(ctx, account.key, numbers);
  const response = await recharge(ctx, account.key, {
    recharges: numbers.map((phone_number) => ({ phone_number, amount: 5 })),
    fast_recharge: options.fast ?? false,
  });
  expect(response.statusCode).toBe(201);
  const ids: string[] = response.json().orderSummary.map((o: { rechargeId: string }) => o.rechargeId);
  return { ...account, ids };
}


describeEachDialect('fulfilment with the staging simulator', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);
  const worker = () => createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps), { batchSize: 10 });

  it('tops up an ordinary number: PENDING → SUCCESS', async () => {
    const { ids, key, accountId } = await place(t.ctx, ['0744400001']);
    expect((await order(t.ctx, ids[0]!))?.status).toBe('PENDING');
    await drain(worker());
    expect(await order(t.ctx, ids[0]!)).toMatchObject({ status: 'SUCCESS', operatorReference: expect.stringMatching(/^SIM-/), failureReason: null, claimedBy: null });
    expect(await balance(t.ctx, key)).toBe(969.88);
    await ledgerMatchesBalance(t.ctx, accountId);
  });

  it.each([
    ['0744400991', 'operator_declined'],
    ['0744400992', 'invalid_subscriber'],
  ])('fails %s with %s and refunds in the same transaction', async (number, reason) => {
    const { ids, key, accountId } = await place(t.ctx, [number, '0744400002']);
    await drain(worker());
    expect(await order(t.ctx, ids[0]!)).toMatchObject({ status: 'FAILED', failureReason: reason });
    expect(await order(t.ctx, ids[1]!)).toMatchObject({ status: 'SUCCESS' });
    expect(await balance(t.ctx, key)).toBe(969.88);
    const refunds = await t.ctx.deps.store.db.selectFrom('ledger_entries').select(['amount', 'order_id']).where('kind', '=', 'refund').where('account_id', '=', accountId).execute();
    expect(refunds.map((r) => [Number(r.amount), r.order_id])).toEqual([[3012, ids[0]]]);
    const summary = (await t.ctx.call(key, { method: 'GET', url: '/v1/account' })).json();
    expect(summary).toMatchObject({ totalConsumed: 30.12, creditRemaining: 969.88, orderSummary: { recharges: { count: 1, totalDeducted: 30.12, totalAmountNet: 24.89 } } });
    await ledgerMatchesBalance(t.ctx, accountId);
  });

  it('retries 993 after the operator was unavailable, then succeeds', async () => {
    const { ids } = await place(t.ctx, ['0744400993']);
    await drain(worker());
    expect(await order(t.ctx, ids[0]!)).toMatchObject({ status: 'PENDING', failureReason: 'operator_unavailable', attempts: 1 });
    expect(await drain(worker())).toBe(0); // not due yet
    t.ctx.clock.advance(OPERATOR_RETRY_DELAYS_MS[0]!);
    await drain(worker());
    expect(await order(t.ctx, ids[0]!)).toMatchObject({ status: 'SUCCESS', failureReason: null, attempts: 2 });
  });

  it('gives 994 up as operator_timeout after the retries, with a refund', async () => {
    const { ids, key } = await place(t.ctx, ['0744400994']);
    for (let attempt = 1; attempt <= MAX_OPERATOR_ATTEMPTS; attempt++) {
      expect(await drain(worker())).toBe(1);
      t.ctx.clock.advance(OPERATOR_RETRY_DELAYS_MS[attempt - 1] ?? 0);
    }
    expect(await order(t.ctx, ids[0]!)).toMatchObject({ status: 'FAILED', failureReason: 'operator_timeout', attempts: MAX_OPERATOR_ATTEMPTS });
    expect(await balance(t.ctx, key)).toBe(1000);
  });

  it('never fails an order whose outcome is unknown: it stays PROCESSING, looked up, until the operator answers', async () => {
    const { ids, key } = await place(t.ctx, ['0744400777']);
    const calls: string[] = [];
    let known: UpstreamAnswer | NotFound = { kind: 'unknown', reason: 'status lookup timed out' };
    const flaky: UpstreamConnector = {
      name: 'flaky',
      serves: () => true,
      send: async () => {
        calls.push('send');
        throw new Error('socket hang up');
      },
      lookup: async () => (calls.push('lookup'), known),
    };
    const logged: Array<{ level: number; msg: string }> = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    const deps = { ...t.ctx.deps, log };
    const rounds = MAX_OPERATOR_ATTEMPTS + 2;
    for (let round = 1; round <= rounds; round++) {
      expect(await drain(createFulfilmentWorker(deps, [flaky]))).toBe(1);
      t.ctx.clock.advance(SLOWEST_LOOKUP_MS);
    }
    expect(await order(t.ctx, ids[0]!)).toMatchObject({ status: 'PROCESSING', attempts: rounds, claimedBy: null });
    expect(await attemptsOf(t.ctx.deps.store.db, ids[0]!)).toEqual([expect.objectContaining({ state: 'open', detail: 'status lookup timed out' })]);
    // Sent once; after that only looked up, never sent under a new reference, never refunded.
    expect(calls).toEqual(['send', ...Array.from({ length: rounds - 1 }, () => 'lookup')]);
    expect(await balance(t.ctx, key)).toBe(969.88);
    expect(logged).toContainEqual(expect.objectContaining({ level: 50, msg: 'operator connector threw; the outcome is unknown' }));
    known = { kind: 'success', operatorReference: 'LATE-1' };
    expect(await drain(createFulfilmentWorker(deps, [flaky]))).toBe(1);
    expect(await order(t.ctx, ids[0]!)).toMatchObject({ status: 'SUCCESS', operatorReference: 'LATE-1' });
  });

  it('gives every operator call a deadline: no answer in time is an unknown outcome, looked up next time', async () => {
    const { ids } = await place(t.ctx, ['0744400778']);
    let answering = false;
    const silent: UpstreamConnector = {
      name: 'silent',
      serves: () => true,
      send: async (_attempt, _order, signal) =>
        answering ? { kind: 'success', operatorReference: 'AT-LAST' } : new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      lookup: async () => ({ kind: 'not_found' }),
    };
    expect(await drain(createFulfilmentWorker(t.ctx.deps, [silent], { operatorTimeoutMs: 50 }))).toBe(1);
    expect(await order(t.ctx, ids[0]!)).toMatchObject({ status: 'PROCESSING', claimedBy: null });
    expect((await attemptsOf(t.ctx.deps.store.db, ids[0]!))[0]).toMatchObject({ state: 'open', detail: expect.stringMatching(/^no_answer: silent did not answer within 50 ms/) });
    answering = true;
    t.ctx.clock.advance(FIRST_LOOKUP_MS);
    expect(await drain(createFulfilmentWorker(t.ctx.deps, [silent]))).toBe(1);
    expect(await order(t.ctx, ids[0]!)).toMatchObject({ status: 'SUCCESS', operatorReference: 'AT-LAST' });
  });

  it('takes fast orders before normal ones', async () => {
    await drain(worker());
    const normal = await place(t.ctx, ['0744400011'], { fast: false });
    t.ctx.clock.advance(1);
    const fast = await place(t.ctx, ['0744400012'], { fast: true });
    const one = createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps), { batchSize: 1 });
    await one.runOnce();
    expect((await order(t.ctx, fast.ids[0]!))?.status).toBe('SUCCESS');
    expect((await order(t.ctx, normal.ids[0]!))?.status).toBe('PENDING');
  });

  it('never tops up twice when a worker dies after sending', async () => {
    await drain(worker());
    const { ids } = await place(t.ctx, ['0744400021']);
    const [simulator] = createUpstreams(t.ctx.deps);
    // Worker A claims the order, records its attempt and sends it, then dies before recording the answer.
    const [claimed] = await claimOrders(t.ctx.deps, 'worker_a', 10, 60_000);
    expect(claimed?.id).toBe(ids[0]);
    const attempt = await startAttempt(t.ctx.deps, claimed!, 'worker_a', 'simulator', 1);
    await simulator!.send(attempt!, claimed!, AbortSignal.timeout(5_000));
    // Its claim holds until it expires; then worker B takes over and looks the attempt up before anything else.
    const b = createFulfilmentWorker(t.ctx.deps, [simulator!], { workerId: 'worker_b' });
    expect(await b.runOnce()).toBe(0);
    t.ctx.clock.advance(60_001);
    expect(await b.runOnce()).toBe(1);
    expect(await order(t.ctx, ids[0]!)).toMatchObject({ status: 'SUCCESS', attempts: 2 });
    expect((await simulatedTopupCounts(t.ctx.deps.store.db)).get(ids[0]!)).toBe(1);
    expect((await attemptsOf(t.ctx.deps.store.db, ids[0]!)).map((a) => [a.reference, a.state])).toEqual([[ids[0], 'succeeded']]);
    // Worker A, back from the dead, cannot settle the order again.
    expect(await recordAnswer(t.ctx.deps, claimed!, 'worker_a', attempt!, { kind: 'failed', reason: 'late', final: true }, true)).toEqual({ kind: 'lost' });
    expect(await order(t.ctx, ids[0]!)).toMatchObject({ status: 'SUCCESS' });
  });

  it('sends an order a dead worker never sent', async () => {
    await drain(worker());
    const { ids } = await place(t.ctx, ['0744400022']);
    await claimOrders(t.ctx.deps, 'worker_dead', 10, 60_000);
    t.ctx.clock.advance(60_001);
    await drain(worker());
    expect(await order(t.ctx, ids[0]!)).toMatchObject({ status: 'SUCCESS' });
    expect((await simulatedTopupCounts(t.ctx.deps.store.db)).get(ids[0]!)).toBe(1);
  });

  it('wakes a sleeping worker as soon as an order is placed', async () => {
    await drain(worker());
    const sleeper = createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps), { idlePollMs: 60_000 });
    sleeper.start();
    await new Promise((r) => setTimeout(r, 50));
    const { ids } = await place(t.ctx, ['0744400031']);
    for (let i = 0; i < 200 && (await order(t.ctx, ids[0]!))?.status !== 'SUCCESS'; i++) await new Promise((r) => setTimeout(r, 10));
    await sleeper.stop();
    expect((await order(t.ctx, ids[0]!))?.status).toBe('SUCCESS');
  });
});

describeEachDialect('fulfilment in production', (dialect) => {
  const t = useTestContext(dialect, { TOPUP_ENV: 'production' });

  it('refuses the simulator unless TOPUP_ALLOW_SIMULATOR=true', () => {
    expect(() => createUpstreams(t.ctx.deps)).toThrow(/TOPUP_ALLOW_SIMULATOR/);
  });

  it('runs a real upstream without any simulator flag', () => {
    const config = loadConfig({ TOPUP_ENV: 'production', TOPUP_UPSTREAM: 'topup', TOPUP_UPSTREAM_TOPUP_URL: 'https://wholesale.example', TOPUP_UPSTREAM_TOPUP_KEY: 'k' });
    expect(createUpstreams({ ...t.ctx.deps, config }).map((u) => u.name)).toEqual(['topup']);
  });
});
