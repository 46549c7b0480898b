#!/usr/bin/env node
// `npm start`: build when the sources are newer than the build, then serve on the embedded default,
// creating a staging demo account (credit and a key, printed once) on the first start.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'dist', 'cli', 'run.js');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (!existsSync(entry) || statSync(entry).mtimeMs < newestSource(join(root, 'src'))) {
  process.stderr.write('building…\n');
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
}
const dashboard = join(root, 'dist', 'dashboard', 'index.html');
if (!existsSync(dashboard) || statSync(dashboard).mtimeMs < newestSource(join(root, 'web'))) {
  process.stderr.write('building the dashboard…\n');
  execFileSync(process.execPath, [join(root, 'scripts', 'build-dashboard.mjs')], { stdio: 'inherit' });
}

const { run } = await import(entry);
await run(['serve', '--demo', ...process.argv.slice(2)]);
