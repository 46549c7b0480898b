#!/usr/bin/env node
// npm run bench:profile [-- recharge|recharge100|check|account|listing|drain]: runs one scenario against a process
// started with --cpu-prof and prints where its CPU time went (the evidence behind docs/PERFORMANCE.md).
// The HTTP scenarios load a server with 50 connections for 5 s; `drain` places 20,000 orders through the
// API, then profiles a worker settling them with the simulator at 0 ms. A fresh SQLite file by default;
// set DATABASE_URL to an empty PostgreSQL database to profile that instead.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { benchNumbers, createDeps, loadConfig, root, seedAccount, waitReady } from './seed.mjs';

const scenario = process.argv[2] ?? 'recharge';
const work = mkdtempSync(join(process.env.PROFILE_DIR ?? tmpdir(), 'topup-profile-'));
const env = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL ?? join(work, 'p.db'),
  TOPUP_RATE_LIMIT_PER_MINUTE: '0',
  TOPUP_EUR_RON_RATE: '4.9773',
  TOPUP_SIMULATOR_DELAY_MS: '0',
  TOPUP_SIMULATOR_FAST_DELAY_MS: '0',
  LOG_LEVEL: 'warn',
};
const DRAIN_ORDERS = 20_000;

const deps = await createDeps(loadConfig(env));
const numbers = benchNumbers(20_000);
const { key } = await seedAccount(deps, numbers);
const headers = { 'x-authorization': key, 'content-type': 'application/json' };
const recharge100 = JSON.stringify({ recharges: numbers.map((phone_number) => ({ phone_number, amount: 1 })) });

/** Starts the service's CLI (`serve` or `worker`), with the CPU profiler when asked. */
function startCli(args, profile) {
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${work}`] : [];
  const child = spawn(process.execPath, [...flags, join(root, 'dist/cli/main.js'), ...args], { env, stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  return { child, stop: async () => (child.kill('SIGINT'), exited) };
}

async function startServer(profile) {
  const port = 30_000 + Math.floor(Math.random() * 20_000);
  const server = startCli(['serve', '--no-worker', '--port', String(port)], profile);
  await waitReady(`http://127.0.0.1:${port}`);
  return { ...server, url: `http://127.0.0.1:${port}` };
}

async function profileHttp() {
  const server = await startServer(true);
  const requests = {
    recharge: { url: '/v1/recharge', method: 'POST', body: JSON.stringify({ recharges: [{ phone_number: '0744520001', amount: 1 }] }) },
    recharge100: { url: '/v1/recharge', method: 'POST', body: recharge100 },
    check: { url: '/v1/check-number', method: 'POST', body: JSON.stringify({ phone_number: '0744520001' }) },
    account: { url: '/v1/account', method: 'GET' },
    listing: { url: '/v1/account/recharges', method: 'GET' },
    account: { url: '/v1/account', method: 'GET' },
  };
  const request = requests[scenario];
  if (!request) throw new Error(`unknown scenario ${scenario}`);
  // A listing reads a full first page: give the account 100 orders before loading it.
  if (scenario === 'listing') await (await fetch(`${server.url}/v1/recharge`, { method: 'POST', headers, body: recharge100 })).text();
  const result = await autocannon({ url: `${server.url}${request.url}`, method: request.method, body: request.body, headers, connections: 50, duration: 5 });
  process.stdout.write(`${scenario}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}\n`);
  await server.stop();
}

async function profileDrain() {
  const server = await startServer(false);
  for (let placed = 0; placed < DRAIN_ORDERS; placed += 1_000) {
    await Promise.all(Array.from({ length: 10 }, () => fetch(`${server.url}/v1/recharge`, { method: 'POST', headers, body: recharge100 })));
  }
  await server.stop();
  const open = async () =>
    Number((await deps.store.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('status', 'in', ['PENDING', 'PROCESSING']).executeTakeFirstOrThrow()).n);
  const total = await open();
  const worker = startCli(['worker'], true);
  const started = Date.now();
  while ((await open()) > 0) await new Promise((r) => setTimeout(r, 20));
  process.stdout.write(`drain: ${total} orders settled at ${Math.round((total * 1000) / (Date.now() - started))} orders/s\n`);
  await worker.stop();
}

await (scenario === 'drain' ? profileDrain() : profileHttp());
await deps.store.close();
const profile = readdirSync(work).find((f) => f.endsWith('.cpuprofile'));
spawn(process.execPath, [join(root, 'bench/profile-summary.mjs'), join(work, profile)], { stdio: 'inherit' });
