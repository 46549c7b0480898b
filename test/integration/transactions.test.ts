import { expect, it } from 'vitest';
import { NestedUnitOfWorkError } from '../../src/store/errors.js';
import { describeEachDialect, useTestContext } from '../support/harness.js';

describeEachDialect('concurrent transactions (group commit on SQLite)', (dialect) => {
  const t = useTestContext(dialect);

  const remember = (accountId: string, msisdn: string) =>
    ({ account_id: accountId, msisdn, operator: 'orange', checked_at: 1 }) as const;

  it('commits the units that succeed and rolls back alone each one that fails', async () => {
    const { accountId } = await t.ctx.account();
    const { store } = t.ctx.deps;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        store.transact(async (tx) => {
          await tx.insertInto('number_checks').values(remember(accountId, `4074400${String(i).padStart(4, '0')}`)).execute();
          if (i % 3 === 0) throw new Error(`unit ${i} fails after writing`);
          return i;
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 'rejected' : 'fulfilled')));
    const stored = await store.db.selectFrom('number_checks').select('msisdn').where('account_id', '=', accountId).orderBy('msisdn').execute();
    expect(stored.map((r) => Number(r.msisdn.slice(-4)))).toEqual(Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 3 !== 0));
  });

  it('runs a lone write committed by the time it resolves, and a failing one leaves nothing', async () => {
    const { accountId } = await t.ctx.account();
    const { store } = t.ctx.deps;
    const [written, refused] = await Promise.allSettled([
      store.write((db) => db.insertInto('number_checks').values(remember(accountId, '40744020001')).execute()),
      // No such account: the foreign key refuses the row.
      store.write((db) => db.insertInto('number_checks').values(remember('acc_missing', '40744020002')).execute()),
    ]);
    expect(written.status).toBe('fulfilled');
    expect(refused.status).toBe('rejected');
    const stored = await store.db.selectFrom('number_checks').select(['account_id', 'msisdn']).where('msisdn', 'like', '4074402%').execute();
    expect(stored).toEqual([{ account_id: accountId, msisdn: '40744020001' }]);
  });

  it('lets the event loop turn (new connections, timers) while long units run', async () => {
    const { accountId } = await t.ctx.account();
    const events: string[] = [];
    const busyFor = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until); // a unit that computes for a while, as a 100-entry placement does
    };
    const units = Array.from({ length: 4 }, (_, i) =>
      t.ctx.deps.store.transact(async (tx) => {
        events.push(`unit ${i}`);
        busyFor(15);
        await tx.insertInto('number_checks').values(remember(accountId, `4074401${String(i).padStart(4, '0')}`)).execute();
      }),
    );
    setImmediate(() => events.push('other work'));
    await Promise.all(units);
    expect(events).toHaveLength(5);
    expect(events.indexOf('other work')).toBeLessThan(events.indexOf('unit 3'));
  });
});

describeEachDialect('a unit of work never nests', (dialect) => {
  const t = useTestContext(dialect);
  const remember = (accountId: string, msisdn: string) => ({ account_id: accountId, msisdn, operator: 'orange', checked_at: 1 }) as const;

  // Nested, a write would wait on SQLite for the commit of the batch it is part of (the process hangs),
  // and on PostgreSQL run outside the unit's transaction; either way it is refused, and the outer unit
  // gets the error and fails alone, while other callers' units (started meanwhile) are untouched.
  it.each(['write', 'transact'] as const)('refuses %s from inside a transact unit', async (inner) => {
    const { accountId } = await t.ctx.account();
    const { store } = t.ctx.deps;
    const others: Array<Promise<unknown>> = [];
    const nested = store.transact(async (tx) => {
      await tx.insertInto('number_checks').values(remember(accountId, '40744030001')).execute();
      others.push(new Promise((resolve) => setImmediate(() => resolve(store.transact((o) => o.insertInto('number_checks').values(remember(accountId, '40744030003')).execute())))));
      others.push(store.db.selectFrom('accounts').select('id').where('id', '=', accountId).execute());
      const work = (db: typeof tx | typeof store.db) => db.insertInto('number_checks').values(remember(accountId, '40744030002')).execute();
      await (inner === 'write' ? store.write(work) : store.transact(work));
    });
    const concurrent = Array.from({ length: 5 }, (_, i) =>
      store.transact((tx) => tx.insertInto('number_checks').values(remember(accountId, `4074403010${i}`)).execute()),
    );
    await expect(nested).rejects.toBeInstanceOf(NestedUnitOfWorkError);
    await Promise.all([...concurrent, ...others]);
    const stored = await store.db.selectFrom('number_checks').select('msisdn').where('account_id', '=', accountId).orderBy('msisdn').execute();
    expect(stored.map((r) => r.msisdn)).toEqual(['40744030003', '40744030100', '40744030101', '40744030102', '40744030103', '40744030104']);
  });
});
