import { expect, it } from 'vitest';
import { createUpstreams } from '../../src/fulfilment/connectors.js';
import { createFulfilmentWorker } from '../../src/fulfilment/worker.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext } from '../support/harness.js';

const DOC_A = '11111111-1111-4111-8111-111111111111';
const DOC_B = '22222222-2222-4222-8222-222222222222';

describeEachDialect('GET /v1/account/recharges', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);
  let account: { key: string; accountId: string };
  let started: number;
  const ids: string[] = [];

  it('lists orders most recent first with the seed record', async () => {
    account = await t.ctx.account({ credit: '5000.00' });
    started = t.ctx.clock.now();
    await checkNumbers(t.ctx, account.key, ['0744500001', '0721500002', '0744500991']);
    // 25 orders over 25 seconds: batches of one, with two document ids and one declined number.
    for (let i = 0; i < 25; i++) {
      t.ctx.clock.advance(1000);
      const phone_number = i % 5 === 4 ? '0744500991' : i % 2 ? '0721500002' : '0744500001';
      const response = await recharge(t.ctx, account.key, {
        recharges: [{ phone_number, amount: 5 }],
        passthrough: { document_id: i < 10 ? DOC_A : DOC_B, n: i },
        fast_recharge: i === 0,
      });
      ids.push(response.json().orderSummary[0].rechargeId);
    }
    await createFulfilmentWorker(t.ctx.deps, createUpstreams(t.ctx.deps), { batchSize: 100 }).runOnce();

    const page = (await t.ctx.call(account.key, { method: 'GET', url: '/v1/account/recharges' })).json();
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 25, total_pages: 2 });
    expect(page.data[0]).toEqual({
      recharge_uuid: ids[24],
      number: '40744500991',
      network: 'orange',
      amount: 5,
      currency: 'EUR',
      recharge_status: 'FAILED',
      fast_recharge: false,
      created_at: new Date(started + 25_000).toISOString(),
      updated_at: expect.stringMatching(/Z$/),
      failure_reason: 'operator_declined',
      passthrough: { document_id: DOC_B, n: 24 },
    });
    expect(page.data.map((o: { recharge_uuid: string }) => o.recharge_uuid)).toEqual(ids.slice(5).reverse());
    const last = (await t.ctx.call(account.key, { method: 'GET', url: '/v1/account/recharges?page=2' })).json();
    expect(last.data.map((o: { recharge_uuid: string }) => o.recharge_uuid)).toEqual(ids.slice(0, 5).reverse());
    expect(last.data[4]).toMatchObject({ fast_recharge: true, recharge_status: 'SUCCESS' });
  });

  it.each([
    ['status=FAILED', 5],
    ['status=SUCCESS', 20],
    ['status=PENDING', 0],
    ['phone_number=0721 500 002', 10],
    ['phone_number=%2B40721500002', 10],
    [`document_id=${DOC_A}`, 10],
    [`document_id=${DOC_B}&status=FAILED`, 3],
    ['limit=5', 25],
  ])('filters by %s (%i orders)', async (query, total) => {
    const page = (await t.ctx.call(account.key, { method: 'GET', url: `/v1/account/recharges?${query}` })).json();
    expect(page.pagination.total).toBe(total);
  });

  it('filters by creation time, from inclusive and to exclusive', async () => {
    const from = new Date(started + 5_000).toISOString();
    const to = new Date(started + 10_000).toISOString();
    const page = (await t.ctx.call(account.key, { method: 'GET', url: `/v1/account/recharges?from=${from}&to=${to}` })).json();
    expect(page.data.map((o: { recharge_uuid: string }) => o.recharge_uuid)).toEqual(ids.slice(4, 9).reverse());
  });

  it.each(['status=DONE', 'phone_number=0212345678', 'document_id=INV-1', 'from=yesterday', 'to=2026-13-01T00:00:00Z', 'page=0', 'limit=101', 'sort=desc'])(
    'refuses %s with 400 invalid_query',
    async (query) => {
      const response = await t.ctx.call(account.key, { method: 'GET', url: `/v1/account/recharges?${query}` });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('invalid_query');
    },
  );

  it('pages by keyset with after=: the same orders as by page number, at any depth, filters kept', async () => {
    const get = async (url: string) => (await t.ctx.call(account.key, { method: 'GET', url })).json();
    const byPage = [...(await get('/v1/account/recharges?limit=4&page=1')).data];
    for (let p = 2; p <= 7; p++) byPage.push(...(await get(`/v1/account/recharges?limit=4&page=${p}`)).data);
    const byCursor = [...(await get('/v1/account/recharges?limit=4')).data];
    let after: string | null = byCursor.at(-1).recharge_uuid;
    let last: Record<string, unknown> = {};
    while (after) {
      const page = await get(`/v1/account/recharges?limit=4&after=${after}`);
      byCursor.push(...page.data);
      last = page.pagination;
      after = page.pagination.next_after;
    }
    expect(byCursor.map((o: { recharge_uuid: string }) => o.recharge_uuid)).toEqual(byPage.map((o: { recharge_uuid: string }) => o.recharge_uuid));
    expect(byCursor).toHaveLength(25);
    expect(last).toEqual({ after: byCursor[23].recharge_uuid, limit: 4, total: 25, total_pages: 7, next_after: null });
    // With a filter: the orders after one, among the failed only.
    const failed = await get('/v1/account/recharges?status=FAILED&limit=2');
    const next = await get(`/v1/account/recharges?status=FAILED&limit=2&after=${failed.data[1].recharge_uuid}`);
    expect(next.data.map((o: { recharge_status: string }) => o.recharge_status)).toEqual(['FAILED', 'FAILED']);
    expect(next.pagination).toMatchObject({ total: 5, next_after: next.data[1].recharge_uuid });
    // An order of no such account, or none at all, is a bad cursor.
    const other = await t.ctx.account();
    const unknown = await t.ctx.call(other.key, { method: 'GET', url: `/v1/account/recharges?after=${ids[0]}` });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'invalid_query', errors: [expect.objectContaining({ field: 'after' })] });
  });

  it('refuses from after to', async () => {
    const response = await t.ctx.call(account.key, { method: 'GET', url: '/v1/account/recharges?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z' });
    expect(response.statusCode).toBe(400);
  });

  it('GET /v1/account/recharges/{id} shows one order with its pricing', async () => {
    const response = await t.ctx.call(account.key, { method: 'GET', url: `/v1/account/recharges/${ids[0]}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      recharge_uuid: ids[0],
      recharge_status: 'SUCCESS',
      fast_recharge: true,
      passthrough: { document_id: DOC_A, n: 0 },
      failure_reason: null,
      pricing: {
        amount: '5.00',
        amountInRon: '24.89',
        eurronRateApplied: '4.9773',
        vatRateApplied: '0.21',
        fastRechargeFee: '0.50',
        fastRechargeFeeInRon: '2.49',
        netInRon: '27.38',
        grossInRon: '33.13',
        deduction: '33.13',
        deductionCurrency: 'RON',
      },
    });
  });

  it("answers another account's order and an unknown id with 404", async () => {
    const other = await t.ctx.account();
    for (const url of [`/v1/account/recharges/${ids[0]}`, '/v1/account/recharges/00000000-0000-4000-8000-000000000000', '/v1/account/recharges/nope']) {
      const response = await t.ctx.call(other.key, { method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('not_found');
    }
    const list = (await t.ctx.call(other.key, { method: 'GET', url: '/v1/account/recharges' })).json();
    expect(list).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, total_pages: 0 } });
  });
});
