import { expect, it } from 'vitest';
import { describeEachDialect, useTestContext } from '../support/harness.js';

describeEachDialect('POST /v1/check-number refusals', (dialect) => {
  const t = useTestContext(dialect);

  it.each([
    ['a missing phone_number', {}, 'phone_number', 'required'],
    ['a number', { phone_number: 744123456 }, 'phone_number', 'invalid_type'],
    ['null', { phone_number: null }, 'phone_number', 'invalid_type'],
    ['an array', { phone_number: ['0744123456'] }, 'phone_number', 'invalid_type'],
    ['an unknown field', { phone_number: '0744123456', country: 'RO' }, 'country', 'unknown_field'],
    ['a huge string', { phone_number: '0'.repeat(1000) }, 'phone_number', 'invalid_maxlength'],
  ])('answers %s with 400 validation_failed', async (_name, payload, field, code) => {
    const { key } = await t.ctx.account();
    const response = await t.ctx.call(key, { method: 'POST', url: '/v1/check-number', payload });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({
      status: 400,
      code: 'validation_failed',
      success: false,
      errors: [expect.objectContaining({ field, code })],
    });
  });

  it('answers a body that is not an object with 400', async () => {
    const { key } = await t.ctx.account();
    for (const payload of ['[]', '"0744123456"', '42', 'null']) {
      const response = await t.ctx.call(key, {
        method: 'POST',
        url: '/v1/check-number',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json().success).toBe(false);
    }
  });
});
