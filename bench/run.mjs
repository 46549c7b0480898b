#!/usr/bin/env node
// npm run bench [-- --quick]: measures the service against a bare node:http baseline on this machine.
// Prints one table and writes the results as JSON to .bench/. See docs/PERFORMANCE.md.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { pino } from 'pino';
import { addWebhook, benchNumbers, createDeps, loadConfig, root, seedAccount, waitReady } from './seed.mjs';

const quick = process.argv.includes('--quick');
// --only http|big-account|csv|drain|webhooks runs one group of scenarios (the others take minutes).
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const runs = (group) => only === undefined || only === group;
const DURATION = quick ? 2 : 8;
const BIG_ACCOUNT_ORDERS = quick ? 50_000 : 1_000_000;
const DRAIN_ORDERS = quick ? 3_000 : 20_000;
const DELIVERIES = quick ? 2_000 : 10_000;
const CONNECTIONS = 50;


const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const port = () => 30_000 + Math.floor(Math.random() * 20_000);

function start(args, env = {}) {
  const child = spawn(process.execPath, args, { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const exited = new Promise((r) => child.once('exit', r));
  return { child, out: () => out, stop: async () => (child.exitCode === null && child.kill('SIGTERM'), exited) };
}

/** A memory figure of a process from /proc (VmHWM: peak so far, VmRSS: now), in kB; undefined once it exited. */
function memoryKb(pid, field) {
  try {
    const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? kb : undefined;
  } catch {
    return undefined;
  }
}

/** Peak resident set size of a process so far, in MB. */
function peakRssMb(pid) {
  const kb = memoryKb(pid, 'VmHWM');
  return kb === undefined ? undefined : Math.round(kb / 1024);
}

/** Samples a process's resident set every 100 ms; stop() gives the highest seen, in MB. */
function sampleRss(pid) {
  let peak = 0;
  const read = () => (peak = Math.max(peak, memoryKb(pid, 'VmRSS') ?? 0));
  read();
  const timer = setInterval(read, 100);
  return { stop: () => (clearInterval(timer), read(), Math.round(peak / 1024)) };
}

async function startBaseline() {
  // Port 0: the system picks a free one (a random pick once collided with a port in use).
  const proc = start([join(root, 'bench/baseline.mjs'), '0']);
  let ready;
  for (let i = 0; i < 100 && !(ready = /ready (\d+)/.exec(proc.out())); i++) await sleep(50);
  if (!ready) throw new Error(`the baseline server did not start: ${proc.out()}`);
  return { ...proc, url: `http://127.0.0.1:${ready[1]}` };
}

async function startService(env, args = ['serve', '--no-worker']) {
  const p = port();
  const proc = start([join(root, 'dist/cli/main.js'), ...args, '--port', String(p)], env);
  const url = `http://127.0.0.1:${p}`;
  await waitReady(url);
  return { ...proc, url };
}

async function load(url, request, pid, connections = CONNECTIONS) {
  const freshKey = request.freshIdempotencyKey ? () => ({ 'idempotency-key': randomUUID() }) : () => ({});
  const probe = await fetch(`${url}${request.path}`, { method: request.method, headers: { ...request.headers, ...freshKey() }, body: request.body });
  if (!probe.ok) throw new Error(`${request.method} ${request.path} answers ${probe.status}: ${await probe.text()}`);
  const rss = pid ? sampleRss(pid) : undefined;
  // The path goes in the URL: autocannon's own `path` option is not applied to a plain run.
  const result = await autocannon({
    url: `${url}${request.path}`,
    connections,
    duration: DURATION,
    method: request.method,
    headers: request.headers,
    body: request.body,
    // Each request its own Idempotency-Key, as an integrator retrying safely would send.
    requests: request.freshIdempotencyKey ? [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...freshKey() } }) }] : undefined,
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
    // Which statuses the non-2xx were (a 503 is load shed, a 429 a limit, a 5xx else a fault).
    ...(result.non2xx > 0 ? { statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])) } : {}),
    rssMb: rss?.stop(),
  };
}

const rows = [];
const record = (scenario, service, baseline, extra = {}) => {
  const row = { scenario, ...service, ratio: baseline ? +(service.rps / baseline.rps).toFixed(2) : undefined, baselineRps: baseline?.rps, ...extra };
  rows.push(row);
  process.stderr.write(`${scenario}: ${JSON.stringify(row)}\n`);
};

const work = mkdtempSync(join(tmpdir(), 'topup-bench-'));
const baseEnv = {
  TOPUP_RATE_LIMIT_PER_MINUTE: '0',
  TOPUP_EUR_RON_RATE: '4.9773',
  TOPUP_SIMULATOR_DELAY_MS: '0',
  TOPUP_SIMULATOR_FAST_DELAY_MS: '0',
};
const log = pino({ level: 'silent' });

async function httpScenarios(dialect, env) {
  const deps = await createDeps(loadConfig(env), { log });
  const numbers = benchNumbers(20_000);
  const account = await seedAccount(deps, numbers);
  const auth = { 'x-authorization': account.key, 'content-type': 'application/json' };
  const baseline = await startBaseline();
  const service = await startService(env);
  try {
    const scenarios =
      dialect === 'sqlite'
        ? [
            ['POST /v1/check-number', { method: 'POST', path: '/v1/check-number', headers: auth, body: JSON.stringify({ phone_number: '0744520001' }) }],
            ['POST /v1/recharge, 1 entry (SQLite, synchronous=FULL)', { method: 'POST', path: '/v1/recharge', headers: auth, body: JSON.stringify({ recharges: [{ phone_number: numbers[0], amount: 1 }] }) }],
            [
              'POST /v1/recharge, 1 entry, a fresh Idempotency-Key each',
              { method: 'POST', path: '/v1/recharge', headers: auth, body: JSON.stringify({ recharges: [{ phone_number: numbers[0], amount: 1 }] }), freshIdempotencyKey: true },
            ],
            [
              'POST /v1/recharge, 100 entries',
              { method: 'POST', path: '/v1/recharge', headers: auth, body: JSON.stringify({ recharges: numbers.map((phone_number) => ({ phone_number, amount: 1 })) }) },
              100,
            ],
          ]
        : [['POST /v1/recharge, 1 entry (PostgreSQL)', { method: 'POST', path: '/v1/recharge', headers: auth, body: JSON.stringify({ recharges: [{ phone_number: numbers[0], amount: 1 }] }) }]];
    for (const [name, request, perRequest] of scenarios) {
      const base = await load(baseline.url, request);
      const measured = await load(service.url, request, service.child.pid);
      record(name, measured, base, perRequest ? { ordersPerSecond: measured.rps * perRequest } : {});
    }
  } finally {
    await baseline.stop();
    record.peak = Math.max(record.peak ?? 0, peakRssMb(service.child.pid) ?? 0);
    await service.stop();
    await deps.store.close();
  }
}

/** Orders written straight into the table (what matters is reading them back), and the account's counters. */
async function seedOrders(deps, accountId, count) {
  const db = deps.store.db;
  const now = Date.now();
  const CHUNK = 500;
  process.stderr.write(`seeding ${count} orders…\n`);
  for (let start = 0; start < count; start += CHUNK * 20) {
    await db.transaction().execute(async (tx) => {
      for (let c = start; c < Math.min(start + CHUNK * 20, count); c += CHUNK) {
        const values = [];
        for (let i = c; i < Math.min(c + CHUNK, count); i++) {
          values.push({
            id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, account_id: accountId, request_id: 'seed', array_position: 0,
            msisdn: '40744520001', operator: 'orange', amount: 100, fast: 0, currency: 'RON', eur_ron_rate: 49773, vat_rate: 21, fast_fee: 0,
            amount_ron: 498, fast_fee_ron: 0, net_ron: 498, gross_ron: 603, amount_net: 498, amount_gross: 603, fee_net: 0, fee_gross: 0,
            deduction: 603, status: 'SUCCESS', attempts: 1, next_attempt_at: now, claimed_by: null, operator_reference: 'SEED',
            failure_reason: null, passthrough: null, document_id: null, webhook_name: null, created_at: now - count + i, updated_at: now,
          });
        }
        await tx.insertInto('orders').values(values).execute();
      }
    });
  }
  await db.updateTable('accounts').set({ orders_placed: count, orders_count: count }).where('id', '=', accountId).execute();
}

async function bigAccountScenario(env) {
  const deps = await createDeps(loadConfig(env), { log });
  const account = await seedAccount(deps, []);
  await seedOrders(deps, account.accountId, BIG_ACCOUNT_ORDERS);
  const baseline = await startBaseline();
  const service = await startService(env);
  try {
    const auth = { 'x-authorization': account.key };
    // The deepest page of 20 but one, by page number (an offset the database walks) and by keyset (after=
    // the last order of the page before, entered straight through the listing index).
    const deepPage = Math.floor(BIG_ACCOUNT_ORDERS / 20) - 1;
    const cursor = `00000000-0000-4000-8000-${String(BIG_ACCOUNT_ORDERS - (deepPage - 1) * 20).padStart(12, '0')}`;
    for (const [name, path] of [
      [`GET /v1/account (${BIG_ACCOUNT_ORDERS.toLocaleString('en')} orders)`, '/v1/account'],
      [`GET /v1/account/recharges, first page (${BIG_ACCOUNT_ORDERS.toLocaleString('en')} orders)`, '/v1/account/recharges'],
      [`GET /v1/account/recharges, page ${deepPage.toLocaleString('en')} by page number`, `/v1/account/recharges?page=${deepPage}`],
      [`GET /v1/account/recharges, page ${deepPage.toLocaleString('en')} by after= (keyset)`, `/v1/account/recharges?after=${cursor}`],
    ]) {
      const request = { method: 'GET', path, headers: auth };
      record(name, await load(service.url, request, service.child.pid), await load(baseline.url, request));
    }
  } finally {
    await baseline.stop();
    record.peak = Math.max(record.peak ?? 0, peakRssMb(service.child.pid) ?? 0);
    await service.stop();
    await deps.store.close();
  }
}

/**
 * The CSV export of a 100,000-order account: its peak memory against the process at rest, and the
 * slowest answer another client got meanwhile (GET /v1/account/balance every 20 ms).
 */
async function csvScenario(env) {
  const orders = Number(process.env.BENCH_CSV_ORDERS ?? (quick ? 20_000 : 100_000));
  const deps = await createDeps(loadConfig(env), { log });
  const account = await seedAccount(deps, []);
  await seedOrders(deps, account.accountId, orders);
  const service = await startService(env);
  try {
    const auth = { 'x-authorization': account.key };
    await fetch(`${service.url}/v1/account/balance`, { headers: auth });
    const atRest = Math.round((memoryKb(service.child.pid, 'VmRSS') ?? 0) / 1024);
    const rss = sampleRss(service.child.pid);
    let slowest = 0;
    let exporting = true;
    const probe = (async () => {
      while (exporting) {
        const started = performance.now();
        await fetch(`${service.url}/v1/account/balance`, { headers: auth }).then((r) => r.arrayBuffer());
        slowest = Math.max(slowest, performance.now() - started);
        await sleep(20);
      }
    })();
    const started = performance.now();
    const response = await fetch(`${service.url}/v1/account/recharges?format=csv`, { headers: auth });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    exporting = false;
    await probe;
    const peak = rss.stop();
    if (lines !== orders + 1) throw new Error(`the export had ${lines} lines, not ${orders + 1}`);
    rows.push({
      scenario: `CSV export of ${orders.toLocaleString('en')} orders`,
      rssMb: peak,
      other: `${Math.round(orders / seconds)} orders/s, ${Math.round(bytes / 1_048_576)} MB in ${seconds.toFixed(1)} s; RSS ${atRest} MB at rest, ${peak} MB peak; slowest balance read meanwhile ${Math.round(slowest)} ms`,
    });
    process.stderr.write(`${rows.at(-1).scenario}: ${rows.at(-1).other}\n`);
  } finally {
    record.peak = Math.max(record.peak ?? 0, peakRssMb(service.child.pid) ?? 0);
    await service.stop();
    await deps.store.close();
  }
}

async function waitUntil(check, what, limitMs = 300_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`timed out: ${what}`);
    await sleep(20);
  }
  return Date.now() - started;
}

async function drainScenario(env) {
  const deps = await createDeps(loadConfig(env), { log });
  const numbers = benchNumbers(30_000);
  const account = await seedAccount(deps, numbers);
  const service = await startService(env);
  // Place the orders through the API (no worker running), then start a worker and time the drain.
  const auth = { 'x-authorization': account.key, 'content-type': 'application/json' };
  const body = JSON.stringify({ recharges: numbers.map((phone_number) => ({ phone_number, amount: 1 })) });
  for (let placed = 0; placed < DRAIN_ORDERS; placed += 100 * 10) {
    await Promise.all(Array.from({ length: 10 }, () => fetch(`${service.url}/v1/recharge`, { method: 'POST', headers: auth, body })));
  }
  await service.stop();
  const open = async () =>
    Number((await deps.store.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('status', 'in', ['PENDING', 'PROCESSING']).executeTakeFirstOrThrow()).n);
  const total = await open();
  const worker = start([join(root, 'dist/cli/main.js'), 'worker'], env);
  const rss = sampleRss(worker.child.pid);
  const ms = await waitUntil(async () => (await open()) === 0, 'worker drain');
  const rssMb = rss.stop();
  record.peak = Math.max(record.peak ?? 0, peakRssMb(worker.child.pid) ?? 0);
  await worker.stop();
  rows.push({ scenario: `worker draining ${total.toLocaleString('en')} orders (simulator at 0 ms)`, settledPerSecond: Math.round((total / ms) * 1000), rssMb });
  process.stderr.write(`${JSON.stringify(rows.at(-1))}\n`);
  await deps.store.close();
}

async function webhookScenario(env) {
  // The receiver is the bare baseline server: it answers 200 to every POST, as fast as node can.
  const receiver = await startBaseline();
  const deps = await createDeps(loadConfig({ ...env, TOPUP_WEBHOOK_ALLOW_PRIVATE: 'true' }), { log });
  const account = await seedAccount(deps, []);
  await addWebhook(deps, { accountId: account.accountId, name: 'default', url: `${receiver.url}/hook` });
  const endpoint = await deps.store.db.selectFrom('webhook_endpoints').select('id').where('account_id', '=', account.accountId).executeTakeFirstOrThrow();
  const now = Date.now();
  const payload = JSON.stringify({ type: 'recharge.succeeded', timestamp: new Date(now).toISOString(), data: { recharge_uuid: 'x', passthrough: null } });
  for (let start = 0; start < DELIVERIES; start += 500) {
    await deps.store.db
      .insertInto('webhook_events')
      .values(Array.from({ length: Math.min(500, DELIVERIES - start) }, (_, i) => ({
        id: `msg_bench_${start + i}`, account_id: account.accountId, endpoint_id: endpoint.id, order_id: `order_${start + i}`,
        type: 'recharge.succeeded', payload, status: 'pending', next_attempt_at: now, created_at: now,
      })))
      .execute();
  }
  const pending = async () =>
    Number((await deps.store.db.selectFrom('webhook_events').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow()).n);
  const worker = start([join(root, 'dist/cli/main.js'), 'worker'], { ...env, TOPUP_WEBHOOK_ALLOW_PRIVATE: 'true' });
  const rss = sampleRss(worker.child.pid);
  const ms = await waitUntil(async () => (await pending()) === 0, 'webhook deliveries');
  const rssMb = rss.stop();
  record.peak = Math.max(record.peak ?? 0, peakRssMb(worker.child.pid) ?? 0);
  await worker.stop();
  await receiver.stop();
  rows.push({ scenario: `webhook delivery of ${DELIVERIES.toLocaleString('en')} events to a local receiver`, deliveredPerSecond: Math.round((DELIVERIES / ms) * 1000), rssMb });
  process.stderr.write(`${JSON.stringify(rows.at(-1))}\n`);
  await deps.store.close();
}

async function postgresUrl() {
  const admin = process.env.TOPUP_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch {
    return undefined;
  }
  const name = `topup_bench_${Date.now().toString(36)}`;
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

const started = Date.now();
try {
  if (runs('http')) {
    await httpScenarios('sqlite', { ...baseEnv, DATABASE_URL: join(work, 'http.db') });
    const postgres = await postgresUrl();
    if (postgres) {
      try {
        await httpScenarios('postgres', { ...baseEnv, DATABASE_URL: postgres.url });
      } finally {
        await postgres.drop();
      }
    } else rows.push({ scenario: 'POST /v1/recharge, 1 entry (PostgreSQL)', skipped: 'no PostgreSQL found' });
  }
  if (runs('big-account')) await bigAccountScenario({ ...baseEnv, DATABASE_URL: join(work, 'big.db') });
  if (runs('csv')) await csvScenario({ ...baseEnv, DATABASE_URL: join(work, 'csv.db') });
  if (runs('drain')) await drainScenario({ ...baseEnv, DATABASE_URL: join(work, 'drain.db') });
  if (runs('webhooks')) await webhookScenario({ ...baseEnv, DATABASE_URL: join(work, 'hooks.db') });
} finally {
  rmSync(work, { recursive: true, force: true });
}

const machine = { date: new Date().toISOString(), cores: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, quick };
const summary = { machine, connections: CONNECTIONS, durationSeconds: DURATION, peakServiceRssMb: record.peak, rows, elapsedSeconds: Math.round((Date.now() - started) / 1000) };
mkdirSync(join(root, '.bench'), { recursive: true });
const file = join(root, '.bench', `results-${machine.date.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);

const fmt = (v, suffix = '') => (v === undefined ? '' : `${v}${suffix}`);
const lines = [
  `| scenario | req/s | p50 ms | p99 ms | non-2xx | × baseline | peak RSS MB | other |`,
  `|---|---|---|---|---|---|---|---|`,
  ...rows.map((r) =>
    `| ${r.scenario} | ${fmt(r.rps)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.non2xx)} | ${fmt(r.ratio)} | ${fmt(r.rssMb)} | ${[
      r.ordersPerSecond && `${r.ordersPerSecond} orders/s`,
      r.settledPerSecond && `${r.settledPerSecond} orders/s settled`,
      r.deliveredPerSecond && `${r.deliveredPerSecond} deliveries/s`,
      r.baselineRps && `baseline ${r.baselineRps} req/s`,
      r.other,
      r.skipped,
    ].filter(Boolean).join('; ')} |`,
  ),
];
process.stdout.write(`\n${machine.date} · ${machine.cores} cores (${machine.cpu}) · ${machine.memoryGb} GiB · Node ${machine.node}${quick ? ' · quick' : ''}\n\n${lines.join('\n')}\n\npeak RSS of a service process: ${record.peak} MB · ${summary.elapsedSeconds} s · ${file}\n`);
