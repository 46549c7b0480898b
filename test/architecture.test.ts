import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

// The shape of the code, read from the code: the dependency rule (.dependency-cruiser.cjs) and the limits
// docs/ARCHITECTURE.md promises. A change that breaks one fails here, whatever else it does.

const root = process.cwd();
const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as IConfiguration;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [relative(root, path)];
  });
}

const sources = filesUnder(join(root, 'src')).filter((f) => f.endsWith('.ts'));
const lines = (path: string) => readFileSync(join(root, path), 'utf8').split('\n').length;

describe('architecture', () => {
  it('keeps the dependency rule: every import points inwards', async () => {
    const { output } = await cruise(['src'], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } });
    const result = output as ICruiseResult;
    const violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(violations).toEqual([]);
    // The rules saw the code: every source file was cruised, and every import of ours resolved.
    const cruised = new Set(result.modules.map((m) => m.source));
    expect(sources.filter((f) => !cruised.has(f))).toEqual([]);
    const unresolved = result.modules.flatMap((m) => m.dependencies.filter((d) => d.couldNotResolve).map((d) => `${m.source} → ${d.module}`));
    expect(unresolved).toEqual([]);
  }, 60_000);

  it('keeps the database dialect inside store/', () => {
    const leaks = sources.filter((f) => !f.startsWith('src/store/') && /dialect/i.test(readFileSync(join(root, f), 'utf8')));
    expect(leaks).toEqual([]);
  });

  it('keeps the dashboard a client of the API: from the server it takes only types of the wire contract', () => {
    const web = filesUnder(join(root, 'web/dashboard/src')).filter((f) => /\.tsx?$/.test(f));
    expect(web.length).toBeGreaterThan(5);
    const reaches = web.flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/^(import|export)( type)? [^;]*? from '([^']+)';/gms)]
        .filter((m) => m[3]!.includes('/src/'))
        .map((m) => ({ file, typeOnly: m[2] === ' type', target: m[3]! })),
    );
    expect(reaches.length).toBeGreaterThan(0);
    expect(reaches.filter((r) => !r.typeOnly || !/^(\.\.\/)+src\/contract\//.test(r.target))).toEqual([]);
    expect(web.filter((f) => lines(f) > 400)).toEqual([]);
  });

  it('keeps @topup/client apart: it imports nothing of the service (its types come from the OpenAPI document)', () => {
    const client = filesUnder(join(root, 'packages/client/src')).filter((f) => f.endsWith('.ts'));
    expect(client.length).toBeGreaterThan(5);
    const reaching = client.filter((file) => /from '(\.\.\/){3,}(src|test|web)\//.test(readFileSync(join(root, file), 'utf8')));
    expect(reaching).toEqual([]);
    expect(client.filter((f) => !f.includes('/generated/') && lines(f) > 400)).toEqual([]);
  });

  it('keeps every source file under 400 lines', () => {
    expect(sources.filter((f) => lines(f) > 400)).toEqual([]);
  });

  it('keeps the README a front door (at most 300 lines) and describes every layer in docs/ARCHITECTURE.md', () => {
    expect(lines('README.md')).toBeLessThanOrEqual(300);
    const architecture = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
    const layers = readdirSync(join(root, 'src')).filter((name) => statSync(join(root, 'src', name)).isDirectory());
    expect(layers.filter((layer) => !architecture.includes(`${layer}/`))).toEqual([]);
    for (const rule of config.forbidden ?? []) expect(architecture, `rule ${rule.name}`).toContain(rule.name!);
  });
});
