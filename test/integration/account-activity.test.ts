import { expect, it } from 'vitest';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext } from '../support/harness.js';

const DAY = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describeEachDialect('account activity and deliveries by order', (dialect) => {
  const t = useTestContext(dialect, { ...FAST_SIMULATOR, TOPUP_VAT_RATE: '0.19' });

  it('counts orders and sums their deductions per UTC day and status, over the days asked for', async () => {
    const { key } = await t.ctx.account({ credit: '1000.00' });
    const place = async (phone_number: string, amount: number) => {
      const placed = await recharge(t.ctx, key, { recharges: [{ phone_number, amount }] });
      expect(placed.statusCode, placed.body).toBe(201);
      return Number(placed.json().balanceDeduction);
    };
    const firstDay = t.ctx.clock.now();
    await checkNumbers(t.ctx, key, ['0744500001', '0744500991']);
    const a = await place('0744500001', 5);
    const b = await place('0744500991', 10); // the simulator refuses …991: FAILED, refunded
    await createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps), { batchSize: 100 }).runOnce();
    t.ctx.clock.advance(2 * DAY);
    const secondDay = t.ctx.clock.now();
    await checkNumbers(t.ctx, key, ['0744500001']);
    const c = await place('0744500001', 7);
    const d = await place('0744500001', 3);

    const response = await t.ctx.call(key, { method: 'GET', url: '/v1/account/activity' });
    expect(response.statusCode, response.body).toBe(200);
    const activity = response.json();
    expect(activity).toMatchObject({ currency: 'RON', to: dateOf(secondDay), from: dateOf(secondDay - 29 * DAY) });
    expect(activity.data).toEqual([
      { date: dateOf(firstDay), status: 'FAILED', orders: 1, deduction: b },
      { date: dateOf(firstDay), status: 'SUCCESS', orders: 1, deduction: a },
      { date: dateOf(secondDay), status: 'PENDING', orders: 2, deduction: Math.round((c + d) * 100) / 100 },
    ].sort((x, y) => (x.date + x.status).localeCompare(y.date + y.status)));

    // Only today: the first day's orders are outside.
    const today = (await t.ctx.call(key, { method: 'GET', url: '/v1/account/activity?days=1' })).json();
    expect(today.from).toBe(today.to);
    expect(today.data).toEqual([{ date: dateOf(secondDay), status: 'PENDING', orders: 2, deduction: Math.round((c + d) * 100) / 100 }]);

    // Another account's orders never count here.
    const other = await t.ctx.account();
    expect((await t.ctx.call(other.key, { method: 'GET', url: '/v1/account/activity' })).json().data).toEqual([]);
  });

  it('refuses a range it does not serve', async () => {
    const { key } = await t.ctx.account();
    for (const days of ['0', '91', 'x', '1.5']) {
      const refused = await t.ctx.call(key, { method: 'GET', url: `/v1/account/activity?days=${days}` });
      expect(refused.statusCode, days).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'invalid_query' });
    }
    expect((await t.ctx.call(key, { method: 'GET', url: '/v1/account/activity?dayz=3' })).statusCode).toBe(400);
  });

  it('lists the deliveries of one order with ?order_id=', async () => {
    const { key } = await t.ctx.account({ credit: '100.00' });
    const webhook = await t.ctx.call(key, { method: 'POST', url: '/v1/webhooks', payload: { name: 'main', url: 'http://127.0.0.1:9/topup' } }); // staging allows loopback; nothing is delivered here
    expect(webhook.statusCode, webhook.body).toBe(201);
    await checkNumbers(t.ctx, key, ['0744500001']);
    const placed = await recharge(t.ctx, key, { recharges: [{ phone_number: '0744500001', amount: 5 }, { phone_number: '0744500001', amount: 6 }], webhook_name: 'main' });
    const [first, second] = placed.json().orderSummary.map((o: { rechargeId: string }) => o.rechargeId);
    await createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps), { batchSize: 100 }).runOnce();
    const all = (await t.ctx.call(key, { method: 'GET', url: '/v1/webhooks/deliveries' })).json();
    expect(all.pagination.total).toBe(2);
    const one = (await t.ctx.call(key, { method: 'GET', url: `/v1/webhooks/deliveries?order_id=${first}` })).json();
    expect(one.pagination.total).toBe(1);
    expect(one.data.map((d: { order_id: string }) => d.order_id)).toEqual([first]);
    expect((await t.ctx.call(key, { method: 'GET', url: `/v1/webhooks/deliveries?order_id=${second}&status=failed` })).json().data).toEqual([]);
    expect((await t.ctx.call(key, { method: 'GET', url: '/v1/webhooks/deliveries?order_id=nope' })).statusCode).toBe(400);
  });
});
