// The command line is bundled with its packages (commander, cli-progress, csv-parse) into one file, so
// that installing the library brings nothing but standardwebhooks. The library itself is tsc's output.
import { chmodSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const out = 'dist/cli/main.js';
rmSync('dist/cli', { recursive: true, force: true });
await build({
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: out,
  external: ['standardwebhooks'],
  // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
  banner: { js: "import { createRequire as __topupCreateRequire } from 'node:module'; const require = __topupCreateRequire(import.meta.url);" },
  legalComments: 'linked',
  logLevel: 'warning',
});
chmodSync(out, 0o755);
