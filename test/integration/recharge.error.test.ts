import { expect, it } from 'vitest';
import { setRate } from '../../src/app/rates.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext, type TestContext } from '../support/harness.js';

async function nothingWritten(ctx: TestContext, accountId: string, balance: bigint) {
  const db = ctx.deps.store.db;
  const orders = await db.selectFrom('orders').select('id').where('account_id', '=', accountId).execute();
  const account = await db.selectFrom('accounts').select(['balance', 'orders_count']).where('id', '=', accountId).executeTakeFirstOrThrow();
  const debits = await db.selectFrom('ledger_entries').select('id').where('account_id', '=', accountId).where('kind', '=', 'recharge').execute();
  expect(orders).toEqual([]);
  expect(debits).toEqual([]);
  expect(BigInt(account.balance)).toBe(balance);
  expect(Number(account.orders_count)).toBe(0);
}

describeEachDialect('POST /v1/recharge refusals', (dialect) => {
  const t = useTestContext(dialect, { ...FAST_SIMULATOR, TOPUP_MAX_ENTRIES: '3' });
  const ok = { phone_number: '0744100001', amount: 5 };

  it.each([
    ['no recharges', {}, 'recharges', 'required'],
    ['an empty batch', { recharges: [] }, 'recharges', 'invalid_minitems'],
    ['more entries than TOPUP_MAX_ENTRIES', { recharges: [ok, ok, ok, ok] }, 'recharges', 'invalid_maxitems'],
    ['an amount as text', { recharges: [{ phone_number: '0744100001', amount: '5' }] }, 'recharges[0].amount', 'invalid_type'],
    ['a missing amount', { recharges: [{ phone_number: '0744100001' }] }, 'recharges[0].amount', 'required'],
    ['a number as a number', { recharges: [{ phone_number: 40744100001, amount: 5 }] }, 'recharges[0].phone_number', 'invalid_type'],
    ['an unknown entry field', { recharges: [{ ...ok, currency: 'EUR' }] }, 'recharges[0].currency', 'unknown_field'],
    ['an unknown top-level field', { recharges: [ok], callback_url: 'https://x' }, 'callback_url', 'unknown_field'],
    ['fast_recharge as text', { recharges: [ok], fast_recharge: 'yes' }, 'fast_recharge', 'invalid_type'],
    ['passthrough as a list', { recharges: [ok], passthrough: ['a'] }, 'passthrough', 'invalid_type'],
    ['a document_id that is no UUID', { recharges: [ok], passthrough: { document_id: 'INV-1' } }, 'passthrough.document_id', 'invalid_format'],
    ['passthrough over 4 KiB', { recharges: [ok], passthrough: { note: 'x'.repeat(5000) } }, 'passthrough', 'too_large'],
  ])('answers %s with 400 and writes nothing', async (_name, payload, field, code) => {
    const { key, accountId } = await t.ctx.account({ credit: '100.00' });
    await checkNumbers(t.ctx, key, ['0744100001']);
    const response = await recharge(t.ctx, key, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_failed', errors: expect.arrayContaining([expect.objectContaining({ field, code })]) });
    await nothingWritten(t.ctx, accountId, 10_000n);
  });

  it('numbers the entry of a type error by arrayPosition', async () => {
    const { key } = await t.ctx.account({ credit: '100.00' });
    const response = await recharge(t.ctx, key, { recharges: [ok, { phone_number: '0744100001', amount: null }] });
    expect(response.json().errors).toEqual([expect.objectContaining({ arrayPosition: 1, field: 'recharges[1].amount' })]);
  });

  it('lists every bad entry with 422 invalid_recharge and writes nothing', async () => {
    const { key, accountId } = await t.ctx.account({ credit: '100.00' });
    await checkNumbers(t.ctx, key, ['0744100001', '0721100001']);
    const response = await recharge(t.ctx, key, {
      recharges: [ok, { phone_number: '0744100002', amount: 5 }, { phone_number: '0721100001', amount: 4.99 }],
    });
    expect(response.statusCode).toBe(422);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ code: 'invalid_recharge', status: 422, success: false });
    expect(response.json().errors).toEqual([
      expect.objectContaining({ arrayPosition: 1, field: 'phone_number', code: 'number_not_checked' }),
      expect.objectContaining({ arrayPosition: 2, field: 'amount', code: 'amount_out_of_range' }),
    ]);
    await nothingWritten(t.ctx, accountId, 10_000n);
  });

  it.each([
    ['0212345678', 'not_mobile'],
    ['+33612345678', 'unsupported_country'],
    ['0744100990', 'not_prepaid'],
    ['0770100001', 'unsupported_operator'],
    ['12', 'invalid_number'],
  ])('refuses %s in a batch as %s', async (phone_number, code) => {
    const { key } = await t.ctx.account({ credit: '100.00' });
    const response = await recharge(t.ctx, key, { recharges: [{ phone_number, amount: 5 }] });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([expect.objectContaining({ arrayPosition: 0, code })]);
  });

  it('answers short credit with 402 and writes nothing', async () => {
    const { key, accountId } = await t.ctx.account({ credit: '10.00' });
    await checkNumbers(t.ctx, key, ['0744100001']);
    const response = await recharge(t.ctx, key, { recharges: [ok] });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ code: 'insufficient_funds', detail: expect.stringContaining('30.12 RON') });
    await nothingWritten(t.ctx, accountId, 1_000n);
  });

  it('answers an unknown webhook_name with 422 unknown_webhook', async () => {
    const { key, accountId } = await t.ctx.account({ credit: '100.00' });
    await checkNumbers(t.ctx, key, ['0744100001']);
    const response = await recharge(t.ctx, key, { recharges: [ok], webhook_name: 'erp' });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('unknown_webhook');
    await nothingWritten(t.ctx, accountId, 10_000n);
  });
});

describeEachDialect('POST /v1/recharge in production', (dialect) => {
  const t = useTestContext(dialect, { TOPUP_ENV: 'production' });

  it('refuses to price without a rate younger than 4 days (503 rate_unavailable)', async () => {
    const { key, accountId } = await t.ctx.account({ credit: '100.00' });
    await checkNumbers(t.ctx, key, ['0744100001']);
    const order = { recharges: [{ phone_number: '0744100001', amount: 5 }] };
    const none = await recharge(t.ctx, key, order);
    expect(none.statusCode).toBe(503);
    expect(none.json().code).toBe('rate_unavailable');
    await setRate(t.ctx.deps, '5.0000');
    t.ctx.clock.advance(4 * 24 * 3600 * 1000 + 1);
    await checkNumbers(t.ctx, key, ['0744100001']);
    expect((await recharge(t.ctx, key, order)).json().code).toBe('rate_unavailable');
    await nothingWritten(t.ctx, accountId, 10_000n);
    await setRate(t.ctx.deps, '5.0000');
    const placed = await recharge(t.ctx, key, order);
    expect(placed.statusCode).toBe(201);
    expect(placed.json().orderSummary[0]).toMatchObject({ eurronRateApplied: '5.0000', amountInRon: '25.00', grossInRon: '30.25' });
  });
});
