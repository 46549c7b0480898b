import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../support/harness.js';

const BIN = resolve('dist/cli/main.js');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `topup` binary as a user would, with the suite's database. */
function topup(env: Record<string, string>, ...args: string[]): Promise<Result> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env } }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const json = (result: Result) => {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const lines = result.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
};

const refused = (result: Result) => {
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  return result.stderr.trim();
};

describeEachDialect('the topup command line', (dialect) => {
  let database: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    if (!existsSync(BIN)) throw new Error('build first: npm run build (npm test does)');
    database = await createTestDatabase(dialect);
    env = { DATABASE_URL: database.target.kind === 'sqlite' ? database.target.path : database.target.url };
  });
  afterAll(async () => database?.drop());

  it('migrate is idempotent', async () => {
    const first = json(await topup(env, 'migrate', '--json'));
    expect(Array.isArray(first.migrated)).toBe(true);
    expect(json(await topup(env, 'migrate', '--json'))).toEqual({ migrated: [] });
  });

  it('accounts, keys and deposits', async () => {
    const account = json(await topup(env, 'accounts', 'create', '--name', 'Acme SRL', '--currency', 'EUR', '--json'));
    expect(account).toEqual({ id: expect.stringMatching(/^acc_/), name: 'Acme SRL', currency: 'EUR' });
    expect(json(await topup(env, 'accounts', 'create', '--name', 'Default', '--json')).currency).toBe('RON');

    const list = json(await topup(env, 'accounts', 'list', '--json'));
    expect(list.data).toEqual(expect.arrayContaining([expect.objectContaining({ id: account.id, name: 'Acme SRL', balance: 0 })]));

    const key = json(await topup(env, 'keys', 'create', '--account', account.id, '--json'));
    expect(key).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^tk_test_[a-z2-7]{52}$/) });

    const deposit = json(await topup(env, 'deposits', 'add', '--account', account.id, '--amount', '100.00', '--reference', 'wire 42', '--json'));
    expect(deposit).toEqual({ id: expect.stringMatching(/^dep_/), amount: 100, currency: 'EUR', balance: 100 });
    expect(json(await topup(env, 'deposits', 'add', '--account', account.id, '--amount', '0.5', '--json')).balance).toBe(100.5);

    const keys = json(await topup(env, 'keys', 'list', '--account', account.id, '--json'));
    expect(keys.data).toEqual([expect.objectContaining({ id: key.id, revoked: false, prefix: key.key.slice(0, 12) })]);
    expect(json(await topup(env, 'keys', 'revoke', key.id, '--json'))).toEqual({ id: key.id, revoked: true });
  });

  it('portability import', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'topup-cli-'));
    const good = join(dir, 'ported.csv');
    writeFileSync(good, 'number,operator\n0744111222,vodafone\n0721111222,orange\n');
    expect(json(await topup(env, 'portability', 'import', good, '--json'))).toEqual({ imported: 2 });
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, '0744111222,vodafone\nnot-a-number,orange\n');
    expect(refused(await topup(env, 'portability', 'import', bad, '--json'))).toContain('line 2');
    expect(refused(await topup(env, 'portability', 'import', join(dir, 'missing.csv'), '--json'))).toContain('ENOENT');
  });

  it('demo creates a staging account with credit and a working key', async () => {
    const demo = json(await topup(env, 'demo', '--json'));
    expect(demo).toMatchObject({
      accountId: expect.stringMatching(/^acc_/),
      key: expect.stringMatching(/^tk_test_/),
      balance: 1000,
      currency: 'RON',
      curl: expect.stringContaining('/v1/account/balance'),
    });
  });

  it.each([
    [['accounts', 'create', '--json'], "required option '--name"],
    [['accounts', 'create', '--name', 'x', '--currency', 'USD', '--json'], 'RON or EUR'],
    [['deposits', 'add', '--account', 'acc_nope', '--amount', '5', '--json'], 'No account acc_nope'],
    [['deposits', 'add', '--account', 'acc_nope', '--amount', '5.555', '--json'], 'at most 2 decimals'],
    [['keys', 'create', '--account', 'acc_nope', '--json'], 'No account'],
    [['keys', 'revoke', 'key_nope', '--json'], 'No API key'],
    [['frobnicate'], 'unknown command'],
    [['serve', '--port', 'http'], 'port'],
  ])('refuses %j with one line on stderr', async (args, message) => {
    expect(refused(await topup(env, ...args))).toContain(message);
  });

  it('refuses bad settings with a message naming the variable', async () => {
    expect(refused(await topup({ ...env, TOPUP_ENV: 'prod' }, 'accounts', 'list', '--json'))).toContain('TOPUP_ENV');
  });
});
