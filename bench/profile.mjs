#!/usr/bin/env node
// npm run bench:profile [-- recharge|recharge100|check|listing]: runs one scenario against a server started with
// --cpu-prof and prints where its CPU time went (the evidence behind README "Performance"). A fresh
// SQLite file by default; set DATABASE_URL to an empty PostgreSQL database to profile that instead.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { benchNumbers, createDeps, loadConfig, root, seedAccount, waitReady } from './seed.mjs';

const scenario = process.argv[2] ?? 'recharge';
const work = mkdtempSync(join(process.env.PROFILE_DIR ?? tmpdir(), 'topup-profile-'));
const env = { ...process.env, DATABASE_URL: process.env.DATABASE_URL ?? join(work, 'p.db'), TOPUP_RATE_LIMIT_PER_MINUTE: '0', TOPUP_EUR_RON_RATE: '4.9773', LOG_LEVEL: 'warn' };

const deps = await createDeps(loadConfig(env));
const numbers = benchNumbers(20_000);
const { key } = await seedAccount(deps, numbers);
await deps.store.close();

const port = 30_000 + Math.floor(Math.random() * 20_000);
const server = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${work}`, join(root, 'dist/cli/main.js'), 'serve', '--no-worker', '--port', String(port)], { env, stdio: 'ignore' });
await waitReady(`http://127.0.0.1:${port}`);
const headers = { 'x-authorization': key, 'content-type': 'application/json' };
const requests = {
  recharge: { url: '/v1/recharge', method: 'POST', body: JSON.stringify({ recharges: [{ phone_number: '0744520001', amount: 1 }] }) },
  recharge100: { url: '/v1/recharge', method: 'POST', body: JSON.stringify({ recharges: numbers.map((phone_number) => ({ phone_number, amount: 1 })) }) },
  check: { url: '/v1/check-number', method: 'POST', body: JSON.stringify({ phone_number: '0744520001' }) },
  listing: { url: '/v1/account/recharges', method: 'GET' },
};
const request = requests[scenario];
const result = await autocannon({ url: `http://127.0.0.1:${port}${request.url}`, method: request.method, body: request.body, headers, connections: 50, duration: 5 });
process.stdout.write(`${scenario}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}\n`);
server.kill('SIGINT');
await new Promise((r) => server.once('exit', r));
const profile = readdirSync(work).find((f) => f.endsWith('.cpuprofile'));
spawn(process.execPath, [join(root, 'bench/profile-summary.mjs'), join(work, profile)], { stdio: 'inherit' });
