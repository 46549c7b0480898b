import { expect, it } from 'vitest';
import { storedOrder } from '../support/books.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext } from '../support/harness.js';

const DOC = '2b1d5f8e-3c4a-4e7b-9f1a-0d2c3b4a5e6f';

describeEachDialect('POST /v1/recharge', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);

  it('places the DESIGN.md example: 5 and 10 EUR fast at 4.9773 cost 96.36 RON', async () => {
    const { key, accountId } = await t.ctx.account({ credit: '100.00' });
    await checkNumbers(t.ctx, key, ['0744123456', '0721123456']);
    const response = await recharge(t.ctx, key, {
      recharges: [
        { phone_number: '0744 123 456', amount: 5 },
        { phone_number: '+40721123456', amount: 10 },
      ],
      fast_recharge: true,
      passthrough: { document_id: DOC, invoice: 'F-1' },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      success: true,
      message: expect.any(String),
      currency: 'RON',
      balanceDeduction: '96.36',
      fastRecharge: true,
      orderSummary: [
        {
          arrayPosition: 0,
          amount: '5.00',
          amountInRon: '24.89',
          eurronRateApplied: '4.9773',
          fastRechargeFee: '0.50',
          fastRechargeFeeInRon: '2.49',
          netInRon: '27.38',
          grossInRon: '33.13',
          operator: 'orange',
          phoneNumber: '40744123456',
          rechargeId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          vatRateApplied: '0.21',
          deduction: '33.13',
          status: 'PENDING',
        },
        expect.objectContaining({ arrayPosition: 1, amount: '10.00', amountInRon: '49.77', grossInRon: '63.23', operator: 'vodafone', phoneNumber: '40721123456' }),
      ],
    });
    expect((await t.ctx.call(key, { method: 'GET', url: '/v1/account/balance' })).json()).toEqual({ balance: 3.64, currency: 'RON' });
    const order = await storedOrder(t.ctx, body.orderSummary[0].rechargeId);
    expect(order).toMatchObject({ accountId, status: 'PENDING', documentId: DOC, eurRon: 49_773n, vat: 21n, deduction: 3313n });
    expect(JSON.parse(order!.passthrough!)).toEqual({ document_id: DOC, invoice: 'F-1' });
    const summary = (await t.ctx.call(key, { method: 'GET', url: '/v1/account' })).json();
    expect(summary).toEqual({
      currency: 'RON',
      totalDeposits: 100,
      totalConsumed: 96.36,
      creditRemaining: 3.64,
      orderSummary: {
        recharges: {
          count: 2,
          totalAmountNet: 74.66,
          totalAmountGross: 90.34,
          totalFastRechargeFeeNet: 4.98,
          totalFastRechargeFeeGross: 6.02,
          totalVat: 16.72,
          totalDeducted: 96.36,
        },
      },
    });
  });

  it('writes one ledger debit per order with running balances', async () => {
    const { key, accountId } = await t.ctx.account({ credit: '50.00' });
    await checkNumbers(t.ctx, key, ['0744000001', '0744000002']);
    await recharge(t.ctx, key, { recharges: [{ phone_number: '0744000001', amount: 1 }, { phone_number: '0744000002', amount: 2 }] });
    const entries = await t.ctx.deps.store.db
      .selectFrom('ledger_entries')
      .select(['kind', 'amount', 'balance_after'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
    // 1 EUR → 4.98 RON → 6.03 gross; 2 EUR → 9.95 → 12.04
    expect(entries.map((e) => [e.kind, Number(e.amount), Number(e.balance_after)])).toEqual([
      ['deposit', 5000, 5000],
      ['recharge', -603, 4397],
      ['recharge', -1204, 3193],
    ]);
  });

  it('lets a per-entry fast_recharge override the top-level one', async () => {
    const { key } = await t.ctx.account({ credit: '200.00' });
    await checkNumbers(t.ctx, key, ['0744000011', '0744000012']);
    const body = (
      await recharge(t.ctx, key, {
        recharges: [{ phone_number: '0744000011', amount: 5, fast_recharge: false }, { phone_number: '0744000012', amount: 5 }],
        fast_recharge: true,
      })
    ).json();
    expect(body.orderSummary.map((o: { fastRechargeFee: string }) => o.fastRechargeFee)).toEqual(['0.00', '0.50']);
    const plain = (await recharge(t.ctx, key, { recharges: [{ phone_number: '0744000011', amount: 5, fast_recharge: true }] })).json();
    expect(plain.fastRecharge).toBe(true);
    expect(plain.orderSummary[0].fastRechargeFee).toBe('0.50');
    const none = (await recharge(t.ctx, key, { recharges: [{ phone_number: '0744000011', amount: 5 }] })).json();
    expect(none.fastRecharge).toBe(false);
  });

  it('charges an EUR account in euros', async () => {
    const { key } = await t.ctx.account({ credit: '20.00', currency: 'EUR' });
    await checkNumbers(t.ctx, key, ['0744000021']);
    const body = (await recharge(t.ctx, key, { recharges: [{ phone_number: '0744000021', amount: 10, fast_recharge: true }] })).json();
    expect(body.currency).toBe('EUR');
    expect(body.balanceDeduction).toBe('12.71');
    expect(body.orderSummary[0].grossInRon).toBe('63.23');
    expect((await t.ctx.call(key, { method: 'GET', url: '/v1/account/balance' })).json()).toEqual({ balance: 7.29, currency: 'EUR' });
  });

  it('takes the full credit to zero, not below', async () => {
    const { key } = await t.ctx.account({ credit: '6.03' });
    await checkNumbers(t.ctx, key, ['0744000031']);
    expect((await recharge(t.ctx, key, { recharges: [{ phone_number: '0744000031', amount: 1 }] })).statusCode).toBe(201);
    expect((await t.ctx.call(key, { method: 'GET', url: '/v1/account/balance' })).json().balance).toBe(0);
    expect((await recharge(t.ctx, key, { recharges: [{ phone_number: '0744000031', amount: 1 }] })).statusCode).toBe(402);
  });

  it('accepts a check made up to TOPUP_NUMBER_CHECK_TTL_SECONDS ago, not later', async () => {
    const { key } = await t.ctx.account({ credit: '100.00' });
    await checkNumbers(t.ctx, key, ['0744000041']);
    t.ctx.clock.advance(86_400_000);
    expect((await recharge(t.ctx, key, { recharges: [{ phone_number: '0744000041', amount: 1 }] })).statusCode).toBe(201);
    t.ctx.clock.advance(1);
    const late = await recharge(t.ctx, key, { recharges: [{ phone_number: '0744000041', amount: 1 }] });
    expect(late.statusCode).toBe(422);
    expect(late.json().errors).toEqual([expect.objectContaining({ arrayPosition: 0, code: 'number_not_checked' })]);
  });
});

describeEachDialect('POST /v1/recharge without the mandatory check', (dialect) => {
  const t = useTestContext(dialect, { ...FAST_SIMULATOR, TOPUP_NUMBER_CHECK_TTL_SECONDS: '0' });

  it('accepts unchecked numbers when TOPUP_NUMBER_CHECK_TTL_SECONDS=0, still judging them', async () => {
    const { key } = await t.ctx.account({ credit: '100.00' });
    expect((await recharge(t.ctx, key, { recharges: [{ phone_number: '0744000051', amount: 1 }] })).statusCode).toBe(201);
    const refused = await recharge(t.ctx, key, { recharges: [{ phone_number: '0744000990', amount: 1 }] });
    expect(refused.json().errors).toEqual([expect.objectContaining({ code: 'not_prepaid' })]);
  });
});
