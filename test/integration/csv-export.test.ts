import { expect, it } from 'vitest';
import { csvField } from '../../src/contract/orders.js';
import { checkNumbers, describeEachDialect, FAST_SIMULATOR, recharge, useTestContext } from '../support/harness.js';

const NUMBERS = Array.from({ length: 100 }, (_, i) => `07446${String(i).padStart(5, '0')}`);

describeEachDialect('the CSV export of orders', (dialect) => {
  const t = useTestContext(dialect, FAST_SIMULATOR);

  it('streams every matching order, without paging, in the listing\'s order, with a header row', async () => {
    const { key } = await t.ctx.account({ credit: '70000.00' });
    await checkNumbers(t.ctx, key, NUMBERS);
    for (let i = 0; i < 21; i++) {
      const response = await recharge(t.ctx, key, { recharges: NUMBERS.map((phone_number) => ({ phone_number, amount: 5 })), passthrough: { document_id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' } });
      expect(response.statusCode).toBe(201);
      t.ctx.clock.advance(1);
    }
    const first = (await t.ctx.call(key, { method: 'GET', url: '/v1/account/recharges?limit=100' })).json().data.map((o: { recharge_uuid: string }) => o.recharge_uuid);
    // A failure reason that a spreadsheet would run as a formula, with a comma and quotes in it.
    await t.ctx.deps.store.db.updateTable('orders').set({ failure_reason: '=HYPERLINK("x"),y' }).where('id', '=', first[0]).execute();

    const response = await t.ctx.call(key, { method: 'GET', url: '/v1/account/recharges?format=csv' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="recharges.csv"');
    const lines = response.body.split('\r\n').filter((l) => l !== '');
    expect(lines[0]).toBe('recharge_uuid,number,network,amount,currency,recharge_status,fast_recharge,created_at,updated_at,failure_reason,document_id,deduction,deduction_currency');
    expect(lines).toHaveLength(1 + 2100);
    expect(lines.slice(1, 101).map((l) => l.split(',')[0])).toEqual(first);
    expect(lines[1]).toBe(
      `${first[0]},40744600099,orange,5.00,EUR,PENDING,false,${lines[1]!.split(',')[7]},${lines[1]!.split(',')[8]},"'=HYPERLINK(""x""),y",3f2504e0-4f89-41d3-9a0c-0305e82c3301,30.12,RON`,
    );
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(2100);
  });

  it('honours the filters and Accept: text/csv, lets a read key export, and refuses a bad filter before sending anything', async () => {
    const { key } = await t.ctx.account({ credit: '1000.00' });
    await checkNumbers(t.ctx, key, ['0744123456', '0721000001']);
    await recharge(t.ctx, key, { recharges: [{ phone_number: '0744123456', amount: 5 }, { phone_number: '0721000001', amount: 5 }] });
    const byAccept = await t.ctx.call(key, { method: 'GET', url: '/v1/account/recharges?phone_number=0721000001', headers: { accept: 'text/csv' } });
    expect(byAccept.headers['content-type']).toContain('text/csv');
    expect(byAccept.body.split('\r\n').filter((l) => l !== '').map((l) => l.split(',')[1])).toEqual(['number', '40721000001']);
    const json = await t.ctx.call(key, { method: 'GET', url: '/v1/account/recharges', headers: { accept: 'application/json, text/csv' } });
    expect(json.headers['content-type']).toContain('application/json');
    const reader = (await t.ctx.call(key, { method: 'POST', url: '/v1/keys', payload: { scope: 'read' } })).json().key;
    expect((await t.ctx.call(reader, { method: 'GET', url: '/v1/account/recharges?format=csv' })).body.split('\r\n').filter((l) => l !== '')).toHaveLength(3);
    const bad = await t.ctx.call(key, { method: 'GET', url: '/v1/account/recharges?format=csv&phone_number=12' });
    expect([bad.statusCode, bad.headers['content-type']]).toEqual([400, expect.stringContaining('application/problem+json')]);
    expect((await t.ctx.call(key, { method: 'GET', url: '/v1/account/recharges?format=xml' })).statusCode).toBe(400);
  });
});

it('quotes CSV fields only when needed, and defuses spreadsheet formulas', () => {
  expect(csvField('plain')).toBe('plain');
  expect(csvField('a,b')).toBe('"a,b"');
  expect(csvField('say "hi"')).toBe('"say ""hi"""');
  expect(csvField('=1+1')).toBe("'=1+1");
  expect(csvField('-2')).toBe("'-2");
  expect(csvField(null)).toBe('');
  expect(csvField(false)).toBe('false');
});
