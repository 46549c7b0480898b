import { expect, it } from 'vitest';
import { apiBalance, orderCount } from '../support/books.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext } from '../support/harness.js';

describeEachDialect('POST /v1/recharge/quote', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);
  const quote = (key: string, payload: object) => t.ctx.call(key, { method: 'POST', url: '/v1/recharge/quote', payload });

  it('prices a request exactly as placing it would, storing and charging nothing', async () => {
    const { key, accountId } = await t.ctx.account({ credit: '500.00' });
    await checkNumbers(t.ctx, key, ['0744123456', '0721000001']);
    const body = { recharges: [{ phone_number: '0744123456', amount: 5 }, { phone_number: '0721000001', amount: 12.5, fast_recharge: true }] };
    const quoted = await quote(key, body);
    expect(quoted.statusCode).toBe(200);
    expect(await orderCount(t.ctx, accountId)).toBe(0);
    expect(await apiBalance(t.ctx, key)).toBe(500);
    const placed = (await recharge(t.ctx, key, body)).json();
    expect(quoted.json()).toEqual({
      success: true,
      currency: 'RON',
      balanceDeduction: placed.balanceDeduction,
      balanceAfter: (500 - Number(placed.balanceDeduction)).toFixed(2),
      sufficientFunds: true,
      fastRecharge: true,
      orderSummary: placed.orderSummary.map(({ rechargeId: _id, status: _status, ...entry }: Record<string, unknown>) => entry),
    });
  });

  it('says when the credit does not cover it, with the balance it would leave', async () => {
    const { key } = await t.ctx.account({ credit: '10.00', currency: 'EUR' });
    await checkNumbers(t.ctx, key, ['0744123456']);
    const quoted = (await quote(key, { recharges: [{ phone_number: '0744123456', amount: 20 }] })).json();
    expect(quoted).toMatchObject({ success: true, currency: 'EUR', balanceDeduction: '24.20', balanceAfter: '-14.20', sufficientFunds: false, fastRecharge: false });
  });

  it('refuses what a placement refuses, with the same problems', async () => {
    const { key } = await t.ctx.account({ credit: '100.00' });
    const body = { recharges: [{ phone_number: '0744999888', amount: 5 }, { phone_number: '0744123456', amount: 0.5 }] };
    const quoted = await quote(key, body);
    const placed = await recharge(t.ctx, key, body);
    expect(quoted.statusCode).toBe(422);
    expect(quoted.json()).toMatchObject({ code: 'invalid_recharge', errors: placed.json().errors });
    expect((await quote(key, { recharges: [{ phone_number: '0744123456', amount: 5 }], surprise: 1 })).statusCode).toBe(400);
  });
});
