import { pino } from 'pino';
import { expect, it } from 'vitest';
import { claimOrders, releaseOrders } from '../../src/app/fulfil-orders.js';
import { ordersForReview, resolveOrder } from '../../src/app/review-orders.js';
import type { NotFound, UpstreamAnswer, UpstreamConnector } from '../../src/app/upstream.js';
import { decideLookup, FIRST_LOOKUP_MS, MAX_OPERATOR_ATTEMPTS, OPERATOR_RETRY_DELAYS_MS, REVIEW_AFTER_MS } from '../../src/domain/retry-schedule.js';
import type { Order } from '../../src/domain/order.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { attemptsOf } from '../../src/store/upstream-attempts.repository.js';
import { apiBalance, drain, storedOrder } from '../support/books.js';
import { databaseEnv, topup } from '../support/cli.js';
import { customerOrder, describeEachDialect, FAST_SIMULATOR, useTestContext, type TestContext } from '../support/harness.js';

type Scripted = UpstreamAnswer | NotFound | 'hang' | 'throw';

/** An upstream that answers from a script and notes every call (`send <reference>`, `lookup <reference>`). */
function scriptedUpstream(
  name: string,
  script: { send?: Scripted[]; lookup?: Scripted[]; balance?: { available: bigint; currency: string } },
  serves: (order: Order) => boolean = () => true,
) {
  const calls: string[] = [];
  const next = async (list: Scripted[] | undefined, signal: AbortSignal): Promise<never | UpstreamAnswer | NotFound> => {
    const step = list?.shift() ?? { kind: 'unknown', reason: 'script ran out' };
    if (step === 'throw') throw new Error('socket hang up');
    if (step === 'hang') return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    return step;
  };
  const upstream: UpstreamConnector = {
    name,
    serves,
    send: async (attempt, _order, signal) => (calls.push(`send ${attempt.reference}`), (await next(script.send, signal)) as UpstreamAnswer),
    lookup: async (attempt, _order, signal) => (calls.push(`lookup ${attempt.reference}`), next(script.lookup, signal)),
    ...(script.balance ? { balance: async () => script.balance! } : {}),
  };
  return { upstream, calls };
}

const placeOne = (ctx: TestContext, number: string) => customerOrder(ctx, number, { credit: '1000.00' });

describeEachDialect('fulfilment through upstreams', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);
  const worker = (upstreams: UpstreamConnector[], operatorTimeoutMs = 2_000) => createFulfilmentWorker(t.ctx.deps, upstreams, { operatorTimeoutMs });
  const attempts = (id: string) => attemptsOf(t.ctx.deps.store.db, id);

  it('fails over to the next upstream when the first provably did nothing, under a new reference', async () => {
    const { id } = await placeOne(t.ctx, '0744600001');
    const first = scriptedUpstream('first', { send: [{ kind: 'retry', reason: 'upstream_insufficient_funds' }] });
    const second = scriptedUpstream('second', { send: [{ kind: 'success', operatorReference: 'OP-2', upstreamId: 'tx-2', cost: { amount: 480n, currency: 'EUR' } }] });
    await drain(worker([first.upstream, second.upstream]));
    expect(first.calls).toEqual([`send ${id}`]);
    expect(second.calls).toEqual([`send ${id}-2`]);
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'SUCCESS', operatorReference: 'OP-2' });
    expect(await attempts(id)).toEqual([
      expect.objectContaining({ reference: id, number: 1, connector: 'first', state: 'not_performed', detail: 'upstream_insufficient_funds' }),
      expect.objectContaining({ reference: `${id}-2`, number: 2, connector: 'second', state: 'succeeded', upstreamId: 'tx-2', operatorReference: 'OP-2', cost: { amount: 480n, currency: 'EUR' } }),
    ]);
    const detail = (await t.ctx.call((await t.ctx.account()).key, { method: 'GET', url: `/v1/account/recharges/${id}` })).statusCode;
    expect(detail).toBe(404); // another account's order stays invisible
  });

  it('skips an upstream that does not serve the order', async () => {
    const { id } = await placeOne(t.ctx, '0744600002');
    const picky = scriptedUpstream('picky', {}, () => false);
    const broad = scriptedUpstream('broad', { send: [{ kind: 'success', operatorReference: 'OP-B' }] });
    await drain(worker([picky.upstream, broad.upstream]));
    expect(picky.calls).toEqual([]);
    expect(broad.calls).toEqual([`send ${id}`]);
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'SUCCESS' });
  });

  it('never fails over after a timeout: the order stays PROCESSING and the same attempt is looked up, then sent again under its reference', async () => {
    const { id, key } = await placeOne(t.ctx, '0744600003');
    const slow = scriptedUpstream('slow', { send: ['hang', { kind: 'pending', upstreamId: 'tx-9' }], lookup: [{ kind: 'not_found' }, { kind: 'success', operatorReference: 'OP-9' }] });
    const spare = scriptedUpstream('spare', { send: [{ kind: 'success', operatorReference: 'NEVER' }] });
    await drain(worker([slow.upstream, spare.upstream], 50));
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'PROCESSING', claimedBy: null });
    expect((await attempts(id))[0]).toMatchObject({ state: 'open', detail: expect.stringMatching(/^no_answer: slow did not answer within 50 ms/) });
    const record = (await t.ctx.call(key, { method: 'GET', url: `/v1/account/recharges/${id}` })).json();
    expect(record.recharge_status).toBe('PROCESSING');
    // Not due before the first lookup delay; then looked up: not found, so the same attempt goes again.
    expect(await drain(worker([slow.upstream, spare.upstream]))).toBe(0);
    t.ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker([slow.upstream, spare.upstream]));
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'PROCESSING' });
    expect((await attempts(id))[0]).toMatchObject({ state: 'open', upstreamId: 'tx-9' });
    t.ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker([slow.upstream, spare.upstream]));
    expect(slow.calls).toEqual([`send ${id}`, `lookup ${id}`, `send ${id}`, `lookup ${id}`]);
    expect(spare.calls).toEqual([]);
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'SUCCESS', operatorReference: 'OP-9' });
    expect(await apiBalance(t.ctx, key)).toBe(969.88);
  });

  it('never takes a refused resend as proof the first send did nothing: the attempt stays open, under its reference', async () => {
    const { id, key } = await placeOne(t.ctx, '0744600013');
    const lagging = scriptedUpstream('lagging', {
      send: [{ kind: 'unknown', reason: 'no_answer' }, { kind: 'retry', reason: 'PHONE_RECENTLY_RECHARGED' }],
      lookup: [{ kind: 'not_found' }, { kind: 'success', operatorReference: 'OP-L' }],
    });
    const spare = scriptedUpstream('spare', { send: [{ kind: 'success', operatorReference: 'NEVER' }] });
    await drain(worker([lagging.upstream, spare.upstream]));
    t.ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker([lagging.upstream, spare.upstream]));
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'PROCESSING' });
    expect(await attempts(id)).toEqual([expect.objectContaining({ reference: id, state: 'open', detail: 'resend_refused: PHONE_RECENTLY_RECHARGED' })]);
    t.ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker([lagging.upstream, spare.upstream]));
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'SUCCESS', operatorReference: 'OP-L' });
    expect(spare.calls).toEqual([]);
    expect(await apiBalance(t.ctx, key)).toBe(969.88);
  });

  it('hands a claim back without moving an order awaiting an answer back to PENDING', async () => {
    const { id } = await placeOne(t.ctx, '0744600014');
    const slow = scriptedUpstream('slow', { send: [{ kind: 'pending', upstreamId: 'tx-s' }], lookup: [{ kind: 'success', operatorReference: 'OP-S' }] });
    await drain(worker([slow.upstream]));
    t.ctx.clock.advance(FIRST_LOOKUP_MS);
    expect((await claimOrders(t.ctx.deps, 'stopping', 10, 15_000)).map((o) => o.id)).toContain(id);
    await releaseOrders(t.ctx.deps, 'stopping', [id]);
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'PROCESSING', claimedBy: null });
    await drain(worker([slow.upstream]));
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'SUCCESS' });
  });

  it('lets an order wait, never fail, while a catalogue upstream has no catalogue yet', async () => {
    const { id, key } = await placeOne(t.ctx, '0744600015');
    const unsynced: UpstreamConnector = { ...scriptedUpstream('unsynced', {}, () => false).upstream, products: async () => [] };
    await drain(worker([unsynced]));
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'PENDING', failureReason: 'no_catalogue: run topup upstream products sync (unsynced)' });
    expect(await apiBalance(t.ctx, key)).toBe(969.88);
    const ready = scriptedUpstream('ready', { send: [{ kind: 'success', operatorReference: 'OP-Y' }] });
    t.ctx.clock.advance(OPERATOR_RETRY_DELAYS_MS[0]!);
    await drain(worker([ready.upstream]));
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'SUCCESS' });
  });

  it('refuses to resolve an order a worker holds, or one not awaiting review unless forced', async () => {
    const { id, key } = await placeOne(t.ctx, '0744600016');
    await claimOrders(t.ctx.deps, 'busy', 10, 15_000);
    await expect(resolveOrder(t.ctx.deps, id, 'FAILED', 'x')).rejects.toThrow(/with a worker right now/);
    t.ctx.clock.advance(15_001);
    await expect(resolveOrder(t.ctx.deps, id, 'FAILED', 'x')).rejects.toThrow(/not awaiting review/);
    expect(await resolveOrder(t.ctx.deps, id, 'FAILED', 'provider confirmed it never arrived', { force: true })).toMatchObject({ status: 'FAILED' });
    expect(await apiBalance(t.ctx, key)).toBe(1000);
  });

  it('treats a throwing connector as an unknown outcome, never a failure', async () => {
    const { id, key } = await placeOne(t.ctx, '0744600004');
    const faulty = scriptedUpstream('faulty', { send: ['throw'], lookup: [{ kind: 'success', operatorReference: 'OP-F' }] });
    await drain(worker([faulty.upstream]));
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'PROCESSING' });
    expect(await apiBalance(t.ctx, key)).toBe(969.88);
    t.ctx.clock.advance(FIRST_LOOKUP_MS);
    await drain(worker([faulty.upstream]));
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'SUCCESS' });
  });

  it('fails and refunds on a final failure without trying the next upstream', async () => {
    const { id, key } = await placeOne(t.ctx, '0744600005');
    const first = scriptedUpstream('first', { send: [{ kind: 'failed', reason: 'invalid_subscriber', final: true }] });
    const second = scriptedUpstream('second', { send: [{ kind: 'success' }] });
    await drain(worker([first.upstream, second.upstream]));
    expect(second.calls).toEqual([]);
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'FAILED', failureReason: 'invalid_subscriber' });
    expect(await apiBalance(t.ctx, key)).toBe(1000);
  });

  it('tries the next upstream after a failure that is not about the number, and fails only when none is left', async () => {
    const { id, key } = await placeOne(t.ctx, '0744600006');
    const first = scriptedUpstream('first', { send: [{ kind: 'failed', reason: 'upstream_failed: operator_timeout' }] });
    const second = scriptedUpstream('second', { send: [{ kind: 'failed', reason: 'product_unavailable' }] });
    await drain(worker([first.upstream, second.upstream]));
    expect(second.calls).toEqual([`send ${id}-2`]);
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'FAILED', failureReason: 'product_unavailable' });
    expect((await attempts(id)).map((a) => a.state)).toEqual(['failed', 'failed']);
    expect(await apiBalance(t.ctx, key)).toBe(1000);
  });

  it('waits with back-off while every upstream refuses, and fails with a refund once the retries run out', async () => {
    const { id, key } = await placeOne(t.ctx, '0744600007');
    const busy = scriptedUpstream('busy', { send: Array.from({ length: MAX_OPERATOR_ATTEMPTS }, () => ({ kind: 'retry' as const, reason: 'upstream_busy' })) });
    for (let attempt = 1; attempt <= MAX_OPERATOR_ATTEMPTS; attempt++) {
      expect(await drain(worker([busy.upstream]))).toBe(1);
      if (attempt < MAX_OPERATOR_ATTEMPTS) expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'PENDING', failureReason: 'upstream_busy' });
      t.ctx.clock.advance(OPERATOR_RETRY_DELAYS_MS[attempt - 1] ?? 0);
    }
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'FAILED', failureReason: 'upstream_busy' });
    expect((await attempts(id)).map((a) => a.reference)).toEqual([id, ...Array.from({ length: MAX_OPERATOR_ATTEMPTS - 1 }, (_, i) => `${id}-${i + 2}`)]);
    expect(await apiBalance(t.ctx, key)).toBe(1000);
  });

  it('holds orders while an upstream is out of float — never failing them — says so on /readyz and /metrics, and resumes by itself', async () => {
    const { id, key } = await placeOne(t.ctx, '0744600012');
    const rounds = MAX_OPERATOR_ATTEMPTS + 3;
    const broke = scriptedUpstream('broke', {
      send: [...Array.from({ length: rounds }, () => ({ kind: 'retry' as const, reason: 'upstream_insufficient_funds', outOfFloat: true })), { kind: 'success', operatorReference: 'OP-R' }],
      balance: { available: 0n, currency: 'EUR' },
    });
    const logged: Array<{ level: number; msg: string; connector?: string }> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    const deps = { ...t.ctx.deps, log };
    for (let round = 1; round <= rounds; round++) {
      expect(await drain(createFulfilmentWorker(deps, [broke.upstream]))).toBe(1);
      expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'PENDING', failureReason: 'upstream_insufficient_funds' });
      t.ctx.clock.advance(OPERATOR_RETRY_DELAYS_MS.at(-1)!);
    }
    expect(logged.filter((l) => l.msg.startsWith('upstream out of float'))).toEqual([expect.objectContaining({ level: 50, connector: 'broke' })]);
    const readiness = (await t.ctx.call(undefined, { method: 'GET', url: '/readyz' })).json();
    expect(readiness).toEqual({ status: 'ready', degraded: [{ check: 'upstream_float', connector: 'broke', since: expect.any(String) }] });
    expect((await t.ctx.call(undefined, { method: 'GET', url: '/metrics' })).body).toContain('topup_upstream_out_of_float{connector="broke"} 1');
    expect(await apiBalance(t.ctx, key)).toBe(969.88);
    // Topped up: the next attempt is accepted, and the mark clears itself.
    expect(await drain(createFulfilmentWorker(deps, [broke.upstream]))).toBe(1);
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'SUCCESS', operatorReference: 'OP-R' });
    expect((await t.ctx.call(undefined, { method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    expect(logged.map((l) => l.msg)).toContain('upstream accepts orders again: its float was topped up');
  });

  it('fails an order no configured upstream serves, refunding it, without sending anything', async () => {
    const { id, key } = await placeOne(t.ctx, '0744600008');
    const none = scriptedUpstream('none', {}, () => false);
    await drain(worker([none.upstream]));
    expect(none.calls).toEqual([]);
    expect(await storedOrder(t.ctx, id)).toMatchObject({ status: 'FAILED', failureReason: expect.stringMatching(/^no_upstream/) });
    expect(await apiBalance(t.ctx, key)).toBe(1000);
  });

  it('lists an order unanswered for 48 hours for review, and a person settles it with a note, refunding on failed', async () => {
    const a = await placeOne(t.ctx, '0744600009');
    const b = await placeOne(t.ctx, '0744600010');
    const silent = scriptedUpstream('silent', { send: [{ kind: 'unknown', reason: 'no_answer' }, { kind: 'unknown', reason: 'no_answer' }], lookup: Array.from({ length: 1000 }, () => ({ kind: 'unknown' as const, reason: 'still nothing' })) });
    await drain(worker([silent.upstream]));
    expect(await ordersForReview(t.ctx.deps)).toEqual([]);
    // Looked up on the schedule for two days: never failed by itself.
    let waited = 0;
    let lookups = 0;
    while (waited <= REVIEW_AFTER_MS) {
      const step = decideLookup(waited).delayMs;
      t.ctx.clock.advance(step);
      waited += step;
      lookups += await drain(worker([silent.upstream]));
    }
    expect(lookups).toBeGreaterThan(100); // both orders, seconds apart at first, then hourly
    expect(silent.calls.filter((c) => c.startsWith('send'))).toHaveLength(2);
    expect((await storedOrder(t.ctx, a.id))?.status).toBe('PROCESSING');
    const review = await ordersForReview(t.ctx.deps);
    expect(review.map((r) => r.order.id).sort()).toEqual([a.id, b.id].sort());
    expect(review.find((r) => r.order.id === a.id)!.attempt).toMatchObject({ connector: 'silent', state: 'open', detail: 'still nothing' });

    expect(await resolveOrder(t.ctx.deps, a.id, 'FAILED', 'provider says: never received')).toMatchObject({ status: 'FAILED', failureReason: 'resolved_failed' });
    expect(await resolveOrder(t.ctx.deps, b.id, 'SUCCESS', 'provider confirms delivery')).toMatchObject({ status: 'SUCCESS' });
    expect(await apiBalance(t.ctx, a.key)).toBe(1000);
    expect(await apiBalance(t.ctx, b.key)).toBe(969.88);
    await expect(resolveOrder(t.ctx.deps, a.id, 'SUCCESS', 'again')).rejects.toThrow(/already FAILED/);
    await expect(resolveOrder(t.ctx.deps, 'nope', 'SUCCESS', 'x')).rejects.toThrow(/No order nope/);
    const trail = await t.ctx.deps.store.db.selectFrom('order_resolutions').selectAll().where('order_id', 'in', [a.id, b.id]).orderBy('order_id').execute();
    expect(trail.map((r) => [r.order_id, r.outcome, r.note, r.previous_status])).toEqual(
      [
        [a.id, 'FAILED', 'provider says: never received', 'PROCESSING'],
        [b.id, 'SUCCESS', 'provider confirms delivery', 'PROCESSING'],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    expect(await ordersForReview(t.ctx.deps)).toEqual([]);
    // A late answer from the upstream changes nothing now.
    t.ctx.clock.advance(3_600_000);
    expect(await drain(worker([silent.upstream]))).toBe(0);
  });

  it('topup orders review and resolve, from the command line', async () => {
    // Two days ago, by the service's clock: the command line reads the real one.
    t.ctx.clock.advance(Date.now() - REVIEW_AFTER_MS - 3_600_000 - t.ctx.clock.now());
    const { id, key } = await placeOne(t.ctx, '0744600011');
    const silent = scriptedUpstream('silent', { send: [{ kind: 'unknown', reason: 'no_answer' }] });
    await drain(worker([silent.upstream]));
    const env = databaseEnv(t.ctx.database.target);
    const review = await topup(env, 'orders', 'review', '--json');
    expect(review.code).toBe(0);
    expect(JSON.parse(review.stdout).data).toContainEqual(
      expect.objectContaining({
        recharge_uuid: id,
        recharge_status: 'PROCESSING',
        attempt: expect.objectContaining({ reference: id, connector: 'silent', state: 'open', detail: 'no_answer' }),
        waiting_hours: expect.any(Number),
      }),
    );
    const both = await topup(env, 'orders', 'resolve', id, '--succeeded', '--failed', '--note', 'x');
    expect([both.code, both.stderr.trim()]).toEqual([1, 'topup: say exactly one of --succeeded or --failed']);
    const resolved = await topup(env, 'orders', 'resolve', id, '--failed', '--note', 'ticket 7: provider never received it', '--json');
    expect([resolved.code, JSON.parse(resolved.stdout)]).toEqual([0, { recharge_uuid: id, recharge_status: 'FAILED', note: 'ticket 7: provider never received it' }]);
    expect(await apiBalance(t.ctx, key)).toBe(1000);
    const again = await topup(env, 'orders', 'resolve', id, '--succeeded', '--note', 'x');
    expect([again.code, again.stderr.trim()]).toEqual([1, `topup: Order ${id} is already FAILED; only an open order can be resolved.`]);
  });
});
