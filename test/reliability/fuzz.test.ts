import fc from 'fast-check';
import { expect, it } from 'vitest';
import { PROBLEMS } from '../../src/http/problem.js';
import { orderCount } from '../support/books.js';
import { checkNumbers, describeEachDialect, useTestContext } from '../support/harness.js';

/** Cases per endpoint: 1,000 in CI; FUZZ_RUNS=20000 npm test for a long run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const CODES = new Set(Object.keys(PROBLEMS));

const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e309', '-0', '0x10', '１２３', '0744123456', '+40744123456', '', ' ', '\u0000', '\u202e0744', '💸'.repeat(100), 'a'.repeat(5000)),
);
const nastyNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -1, 1e21, 5e-324, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1, 0.1 + 0.2, 199.999, 5.005));
const value = fc.oneof(nastyString, nastyNumber, fc.boolean(), fc.constant(null), fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 3 }), fc.object({ maxDepth: 2 }));
const entry = fc.record(
  { phone_number: fc.oneof(nastyString, value), amount: fc.oneof(nastyNumber, value), fast_recharge: value, extra: value },
  { requiredKeys: [] },
);
const rechargeBody = fc.oneof(
  fc.record(
    {
      recharges: fc.oneof(fc.array(entry, { maxLength: 5 }), value),
      passthrough: fc.oneof(value, fc.record({ document_id: fc.oneof(fc.uuid(), nastyString) }, { requiredKeys: [] })),
      fast_recharge: value,
      webhook_name: fc.oneof(nastyString, value),
      unexpected: value,
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
);
const checkBody = fc.oneof(fc.record({ phone_number: fc.oneof(nastyString, value), other: value }, { requiredKeys: [] }), fc.anything());

/** A body as bytes on the wire: valid JSON, or one of the ways a body goes wrong. */
const wire = (body: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 6, arbitrary: body.map((b) => JSON.stringify(b) ?? 'null') },
    { weight: 1, arbitrary: fc.constantFrom('{"phone_number":"0744123456","phone_number":5}', '{"recharges":[{"amount":1,"amount":"x"}]}', '{', '{"a":1}}', '[1,2', '"\\ud800"', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}') },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 40_000 }).map((depth) => `{"passthrough":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)},"recharges":[]}`) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  );
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x', undefined);
const query = fc.array(fc.tuple(fc.constantFrom('page', 'limit', 'status', 'phone_number', 'document_id', 'from', 'to', 'x', 'page[]'), nastyString), { maxLength: 4 });
const idempotencyKey = fc.option(fc.oneof(fc.string({ maxLength: 300 }), fc.uuid()), { nil: undefined });

async function answersCleanly(response: { statusCode: number; headers: Record<string, unknown>; body: string }, input?: unknown) {
  expect(response.statusCode, `${JSON.stringify(input)} → ${response.body}`).toBeLessThan(500);
  if (response.statusCode >= 400) {
    expect(response.headers['content-type']).toContain('application/problem+json');
    const problem = JSON.parse(response.body);
    expect(CODES.has(problem.code), problem.code).toBe(true);
    expect(problem).toMatchObject({ status: response.statusCode, success: false, message: problem.detail });
  }
}

describeEachDialect('fuzzing every endpoint', (dialect) => {
  const t = useTestContext(dialect, { TOPUP_RATE_LIMIT_PER_MINUTE: '0', TOPUP_EUR_RON_RATE: '4.9773' });

  it('POST /v1/recharge never fails with 5xx and writes only what it acknowledges', async () => {
    const account = await t.ctx.account({ credit: '100000.00' });
    await checkNumbers(t.ctx, account.key, ['0744123456', '40721123456']);
    const before = await orderCount(t.ctx);
    let acknowledged = 0;
    await fc.assert(
      fc.asyncProperty(wire(rechargeBody), contentType, idempotencyKey, async (payload, type, key) => {
        const headers: Record<string, string> = {};
        if (type) headers['content-type'] = type;
        if (key !== undefined) headers['idempotency-key'] = key;
        const response = await t.ctx.call(account.key, { method: 'POST', url: '/v1/recharge', headers, payload });
        await answersCleanly(response, payload);
        if (response.statusCode === 201 && response.headers['idempotent-replayed'] === undefined) acknowledged += JSON.parse(response.body).orderSummary.length;
      }),
      { numRuns: RUNS },
    );
    expect(await orderCount(t.ctx)).toBe(before + acknowledged);
  }, 120_000);

  it('POST /v1/check-number never fails with 5xx', async () => {
    const { key } = await t.ctx.account();
    await fc.assert(
      fc.asyncProperty(wire(checkBody), contentType, async (payload, type) => {
        const response = await t.ctx.call(key, { method: 'POST', url: '/v1/check-number', headers: type ? { 'content-type': type } : {}, payload });
        await answersCleanly(response, payload);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it.each(['/v1/account', '/v1/account/balance', '/v1/account/deposits', '/v1/account/recharges'])('GET %s never fails with 5xx, whatever the query', async (path) => {
    const { key } = await t.ctx.account();
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        await answersCleanly(await t.ctx.call(key, { method: 'GET', url: `${path}${qs ? `?${qs}` : ''}` }), qs);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('GET /v1/account/recharges/{id} and POST /v1/ping never fail with 5xx', async () => {
    const { key } = await t.ctx.account();
    await fc.assert(
      fc.asyncProperty(nastyString, fc.option(nastyString, { nil: undefined }), async (id, authorization) => {
        await answersCleanly(await t.ctx.call(key, { method: 'GET', url: `/v1/account/recharges/${encodeURIComponent(id)}` }), id);
        await answersCleanly(await t.ctx.call(authorization, { method: 'POST', url: '/v1/ping' }), authorization);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
