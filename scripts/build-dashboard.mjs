#!/usr/bin/env node
// Bundles the dashboard (web/dashboard) into dist/dashboard: index.html and hashed, minified assets,
// each also precompressed (gzip and brotli) for @fastify/static. Fails when the JavaScript grows past
// the budget the issue set (150 KB gzipped).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, 'web', 'dashboard');
const out = join(root, 'dist', 'dashboard');
const JS_BUDGET_GZIP = 150 * 1024;

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

const result = await build({
  entryPoints: { app: join(source, 'src', 'main.tsx') },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  entryNames: '[name]-[hash]',
  outdir: join(out, 'assets'),
  metafile: true,
  sourcemap: false,
  legalComments: 'linked',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((path) => join(root, path));
const named = (ext) => {
  const file = outputs.find((path) => path.endsWith(ext) && basename(path).startsWith('app-'));
  if (!file) throw new Error(`the build made no app-*${ext}`);
  return basename(file);
};
writeFileSync(join(out, 'index.html'), readFileSync(join(source, 'index.html'), 'utf8').replace('%JS%', named('.js')).replace('%CSS%', named('.css')));

let jsGzip = 0;
for (const file of outputs) {
  const content = readFileSync(file);
  const gzipped = gzipSync(content, { level: 9 });
  writeFileSync(`${file}.gz`, gzipped);
  writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  if (file.endsWith('.js')) jsGzip += gzipped.length;
  if (!process.env.CI) process.stderr.write(`dashboard: ${basename(file)} ${(content.length / 1024).toFixed(1)} KB, ${(gzipped.length / 1024).toFixed(1)} KB gzipped\n`);
}
if (jsGzip > JS_BUDGET_GZIP) {
  process.stderr.write(`dashboard: the JavaScript is ${(jsGzip / 1024).toFixed(1)} KB gzipped, over the ${JS_BUDGET_GZIP / 1024} KB budget\n`);
  process.exit(1);
}
