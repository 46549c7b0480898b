import { expect, it } from 'vitest';
import { importPortedNumbers } from '../../src/app/portability.js';
import { findNumberChecks } from '../../src/store/number-checks.repository.js';
import { describeEachDialect, useTestContext } from '../support/harness.js';

const check = (phone_number: unknown) => ({ method: 'POST' as const, url: '/v1/check-number', payload: { phone_number } });

describeEachDialect('POST /v1/check-number', (dialect) => {
  const t = useTestContext(dialect);

  it.each(['0744123456', '40744123456', '+40744123456', '0040744123456', '0744 123 456', '(0744) 123-456', '0744.123.456'])(
    'accepts %j',
    async (input) => {
      const { key } = await t.ctx.account();
      const response = await t.ctx.call(key, check(input));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        isValid: true,
        operator: 'orange',
        sanitizedNumber: '40744123456',
        national: '0744123456',
        ported: false,
      });
    },
  );

  it.each([
    ['0721000001', 'vodafone'],
    ['0731000001', 'vodafone'],
    ['0791000001', 'vodafone'],
    ['0741000001', 'orange'],
    ['0751000001', 'orange'],
    ['0761000001', 'telekom'],
    ['0787000001', 'telekom'],
    ['0711000001', 'telekom'],
  ])('%s is %s', async (input, operator) => {
    const { key } = await t.ctx.account();
    expect((await t.ctx.call(key, check(input))).json()).toMatchObject({ isValid: true, operator });
  });

  it.each([
    ['07441', 'invalid_number'],
    ['hello', 'invalid_number'],
    ['0212345678', 'not_mobile'],
    ['+33612345678', 'unsupported_country'],
    ['0770123456', 'unsupported_operator'],
    ['0701123456', 'unsupported_operator'],
    ['0744123990', 'not_prepaid'],
  ])('answers %j with the failure form %s', async (input, code) => {
    const { key } = await t.ctx.account();
    const response = await t.ctx.call(key, check(input));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({ isValid: false, message: expect.any(String), code });
    expect(body.message.length).toBeGreaterThan(10);
  });

  it('remembers a successful check per account, and only a successful one', async () => {
    const a = await t.ctx.account();
    const b = await t.ctx.account();
    await t.ctx.call(a.key, check('0744 555 666'));
    await t.ctx.call(a.key, check('0212345678'));
    const db = t.ctx.deps.store.db;
    expect(await findNumberChecks(db, a.accountId, ['40744555666', '40212345678'])).toEqual([
      { accountId: a.accountId, msisdn: '40744555666', operator: 'orange', checkedAt: t.ctx.clock.now() },
    ]);
    expect(await findNumberChecks(db, b.accountId, ['40744555666'])).toEqual([]);
    t.ctx.clock.advance(60_000);
    await t.ctx.call(a.key, check('40744555666'));
    expect((await findNumberChecks(db, a.accountId, ['40744555666']))[0]?.checkedAt).toBe(t.ctx.clock.now());
  });

  it('takes the operator of a ported number from the imported table', async () => {
    const { key } = await t.ctx.account();
    await importPortedNumbers(t.ctx.deps, 'number,operator\n0744 777 888,vodafone\n40721777888,telekom\n');
    expect((await t.ctx.call(key, check('0744777888'))).json()).toMatchObject({ isValid: true, operator: 'vodafone', ported: true });
    expect((await t.ctx.call(key, check('+40721777888'))).json()).toMatchObject({ isValid: true, operator: 'telekom', ported: true });
    await importPortedNumbers(t.ctx.deps, '0744777888,orange');
    expect((await t.ctx.call(key, check('0744777888'))).json()).toMatchObject({ operator: 'orange', ported: true });
  });

  it('imports a ported-numbers file whole or not at all', async () => {
    await expect(importPortedNumbers(t.ctx.deps, '0744999111,vodafone\n0212345678,orange\n0744999112,o2')).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ field: 'line 2' }), expect.objectContaining({ field: 'line 3' })],
    });
    const { key } = await t.ctx.account();
    expect((await t.ctx.call(key, check('0744999111'))).json()).toMatchObject({ operator: 'orange', ported: false });
  });
});

describeEachDialect('POST /v1/check-number with TOPUP_OPERATORS', (dialect) => {
  const t = useTestContext(dialect, { TOPUP_OPERATORS: 'vodafone,digi' });

  it('serves only the listed operators', async () => {
    const { key } = await t.ctx.account();
    expect((await t.ctx.call(key, check('0744123456'))).json()).toMatchObject({ isValid: false, code: 'unsupported_operator' });
    expect((await t.ctx.call(key, check('0770123456'))).json()).toMatchObject({ isValid: true, operator: 'digi' });
    expect((await t.ctx.call(key, check('0721123456'))).json()).toMatchObject({ isValid: true, operator: 'vodafone' });
  });
});
