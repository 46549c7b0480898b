import { expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS } from '../../src/app/idempotency.js';
import { insertRunningKey } from '../../src/store/idempotency.repository.js';
import { apiBalance as balanceOf, orderCount } from '../support/books.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext } from '../support/harness.js';

const order = (amount = 5) => ({ recharges: [{ phone_number: '0744200001', amount }], passthrough: { a: 1, b: [1, 2] } });


describeEachDialect('Idempotency-Key on POST /v1/recharge', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);

  async function setup(credit = '100.00') {
    const account = await t.ctx.account({ credit });
    await checkNumbers(t.ctx, account.key, ['0744200001']);
    return account;
  }

  it('replays the original response and charges once', async () => {
    const { key, accountId } = await setup();
    const first = await recharge(t.ctx, key, order(), { 'idempotency-key': 'order-1' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same JSON with keys in another order is the same request.
    const again = await recharge(t.ctx, key, { passthrough: { b: [1, 2], a: 1 }, recharges: [{ amount: 5, phone_number: '0744200001' }] }, { 'idempotency-key': 'order-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await orderCount(t.ctx, accountId)).toBe(1);
    expect(await balanceOf(t.ctx, key)).toBe(69.88);
  });

  it('refuses the same key with another body (422 idempotency_key_reused)', async () => {
    const { key, accountId } = await setup();
    await recharge(t.ctx, key, order(5), { 'idempotency-key': 'order-2' });
    const other = await recharge(t.ctx, key, order(6), { 'idempotency-key': 'order-2' });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
    expect(await orderCount(t.ctx, accountId)).toBe(1);
  });

  it('keeps no key for a request that failed', async () => {
    const { key, accountId } = await setup('10.00');
    const short = await recharge(t.ctx, key, order(), { 'idempotency-key': 'order-3' });
    expect(short.statusCode).toBe(402);
    const { addDeposit } = await import('../../src/app/deposits.js');
    await addDeposit(t.ctx.deps, { accountId, amount: '100.00' });
    const retried = await recharge(t.ctx, key, order(), { 'idempotency-key': 'order-3' });
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    const invalid = await recharge(t.ctx, key, { recharges: [{ phone_number: '0744200009', amount: 5 }] }, { 'idempotency-key': 'order-4' });
    expect(invalid.statusCode).toBe(422);
    expect((await recharge(t.ctx, key, order(7), { 'idempotency-key': 'order-4' })).statusCode).toBe(201);
  });

  it('scopes keys to the account', async () => {
    const a = await setup();
    const b = await setup();
    const first = await recharge(t.ctx, a.key, order(), { 'idempotency-key': 'shared' });
    const second = await recharge(t.ctx, b.key, order(), { 'idempotency-key': 'shared' });
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().orderSummary[0].rechargeId).not.toBe(first.json().orderSummary[0].rechargeId);
  });

  it('forgets a key after 24 hours', async () => {
    const { key, accountId } = await setup();
    await recharge(t.ctx, key, order(5), { 'idempotency-key': 'order-5' });
    t.ctx.clock.advance(IDEMPOTENCY_TTL_MS + 1);
    await checkNumbers(t.ctx, key, ['0744200001']);
    const later = await recharge(t.ctx, key, order(6), { 'idempotency-key': 'order-5' });
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await orderCount(t.ctx, accountId)).toBe(2);
  });

  it('answers 409 while the first request runs, and takes over a key whose request died', async () => {
    const { key, accountId } = await setup();
    const { requestHash } = await import('../../src/app/idempotency.js');
    const now = t.ctx.clock.now();
    const body = order();
    await insertRunningKey(t.ctx.deps.store.db, { accountId, key: 'order-6', requestHash: requestHash(body), lockedUntil: now + t.ctx.deps.config.idempotencyLockMs, createdAt: now });
    const busy = await recharge(t.ctx, key, body, { 'idempotency-key': 'order-6' });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().code).toBe('idempotency_key_in_use');
    expect((await recharge(t.ctx, key, order(9), { 'idempotency-key': 'order-6' })).json().code).toBe('idempotency_key_reused');
    t.ctx.clock.advance(t.ctx.deps.config.idempotencyLockMs + 1);
    const resumed = await recharge(t.ctx, key, body, { 'idempotency-key': 'order-6' });
    expect(resumed.statusCode).toBe(201);
    expect(await orderCount(t.ctx, accountId)).toBe(1);
  });

  it('lets exactly one of many concurrent requests with one key place the order', async () => {
    const { key, accountId } = await setup();
    const responses = await Promise.all(Array.from({ length: 10 }, () => recharge(t.ctx, key, order(), { 'idempotency-key': 'race' })));
    const statuses = responses.map((r) => r.statusCode).sort();
    const fresh = responses.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const r of responses.filter((r) => r.statusCode === 201)) expect(r.json()).toEqual(fresh[0]!.json());
    expect(await orderCount(t.ctx, accountId)).toBe(1);
    expect(await balanceOf(t.ctx, key)).toBe(69.88);
  });

  it.each(['', 'has space', 'x'.repeat(256), 'tab\there', 'ünï'])('refuses the malformed key %j with 400', async (bad) => {
    const { key, accountId } = await setup();
    const response = await recharge(t.ctx, key, order(), { 'idempotency-key': bad });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('validation_failed');
    expect(await orderCount(t.ctx, accountId)).toBe(0);
  });
});

describeEachDialect('concurrent orders against the last credit', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);

  it('lets exactly as many succeed as the credit covers, never below zero', async () => {
    // 1 EUR to an orange number costs 6.03 RON; credit for exactly 5.
    const { key, accountId } = await t.ctx.account({ credit: '30.15' });
    await checkNumbers(t.ctx, key, ['0744300001']);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => recharge(t.ctx, key, { recharges: [{ phone_number: '0744300001', amount: 1 }] })),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(15);
    expect(await balanceOf(t.ctx, key)).toBe(0);
    expect(await orderCount(t.ctx, accountId)).toBe(5);
  });
});
