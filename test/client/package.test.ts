import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED, renderClientTypes, servedDocument } from '../../scripts/client-types.mjs';

describe('@topup/client as a package', () => {
  it('has types generated from the OpenAPI document the service serves (run `npm run generate:client` when this fails)', async () => {
    const expected = await renderClientTypes(await servedDocument());
    expect(readFileSync(GENERATED, 'utf8') === expected, `${GENERATED} is out of date: npm run generate:client`).toBe(true);
  }, 60_000);

  it('needs nothing at run time but standardwebhooks and the platform: the whole import graph of its entry', () => {
    const entry = resolve('node_modules/@topup/client/dist/index.js');
    const bare = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const [, specifier] of source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)) {
        if (specifier === undefined) continue;
        if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
        else bare.add(specifier);
      }
    };
    visit(entry);
    expect(seen.size).toBeGreaterThan(4);
    expect([...bare]).toEqual(['standardwebhooks']);
  });
});
