import { expect, it } from 'vitest';
import { describeEachDialect, useTestContext } from '../support/harness.js';

describeEachDialect('account read refusals', (dialect) => {
  const t = useTestContext(dialect);

  it.each(['page=0', 'page=-1', 'page=abc', 'page=1.5', 'limit=0', 'limit=101', 'limit=ten', 'limit=', 'sort=asc'])(
    'GET /v1/account/deposits?%s is 400 invalid_query',
    async (query) => {
      const { key } = await t.ctx.account();
      const response = await t.ctx.call(key, { method: 'GET', url: `/v1/account/deposits?${query}` });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ code: 'invalid_query', status: 400, errors: [expect.any(Object)] });
    },
  );

  it('accepts the largest page size', async () => {
    const { key } = await t.ctx.account();
    const response = await t.ctx.call(key, { method: 'GET', url: '/v1/account/deposits?limit=100' });
    expect(response.statusCode).toBe(200);
    expect(response.json().pagination.limit).toBe(100);
  });
});
