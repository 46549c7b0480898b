// The dependency rule, checked on every `npm test` (test/architecture.test.ts) and by `npm run lint:deps`.
// docs/ARCHITECTURE.md draws the same layers; change both together.
//
//   domain ← contract ← app ← (http, cli, fulfilment, webhooks, adapters) ← composition root
//              store ↗ (only app and the composition root reach it)
const PURE_PACKAGES = 'node_modules/(libphonenumber-js|ipaddr[.]js|fast-xml-parser)/';
const OUTER = 'src/(http|cli|fulfilment|webhooks|adapters)/';
const ROOT = 'src/(main|server|workers)[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-no-layer',
      comment: 'domain/ is pure rules and entities: it imports nothing of ours outside domain/.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'domain-does-no-io',
      comment: 'domain/ uses no node module (no clock, random, network or disk) and only pure packages.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-no-pkg', 'npm-unknown'], pathNot: PURE_PACKAGES },
    },
    {
      name: 'contract-is-schemas-and-presenters',
      comment: 'contract/ is the wire contract: TypeBox schemas and pure presenters over domain types.',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/(domain|contract)/' },
    },
    {
      name: 'contract-uses-only-typebox',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-no-pkg', 'npm-unknown'], pathNot: 'node_modules/@sinclair/typebox/' },
    },
    {
      name: 'store-is-inside',
      comment: 'store/ knows the domain and the database, never the use cases, the contract or a transport.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: '^src/(store/|domain/|config[.]ts$)' },
    },
    {
      name: 'app-knows-no-transport',
      comment: 'app/ (use cases) never imports a transport, an adapter or the composition root.',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { path: [`^${OUTER}`, `^${ROOT}`] },
    },
    {
      name: 'app-takes-only-types-from-the-contract',
      comment: 'Use cases take request types from contract/ but return domain results: presenting is for transports.',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { path: '^src/contract/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'app-does-no-io-of-its-own',
      comment: 'DNS, HTTP, disk and processes are adapters behind the interfaces of app/ports.ts.',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(dns|dns/promises|http|https|http2|net|tls|dgram|fs|fs/promises|child_process|cluster|worker_threads)$' },
    },
    {
      name: 'only-app-and-the-root-reach-the-store',
      comment: 'Transports and adapters go through app/ use cases and domain types.',
      severity: 'error',
      from: { path: `^${OUTER}` },
      to: { path: '^src/store/' },
    },
    {
      name: 'nothing-imports-http',
      comment: 'http/ is an outer layer: only server.ts starts it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(http/|server[.]ts$)' },
      to: { path: '^src/http/' },
    },
    {
      name: 'fastify-only-in-http',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(http/|server[.]ts$)' },
      to: { path: 'node_modules/(fastify|@fastify/[^/]+)/' },
    },
    {
      name: 'database-drivers-only-in-store',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: 'node_modules/(kysely|pg|better-sqlite3)/' },
    },
    {
      name: 'transports-do-not-import-each-other',
      comment: 'fulfilment/, webhooks/, http/, cli/ and adapters/ meet only in the composition root.',
      severity: 'error',
      from: { path: `^${OUTER}` },
      to: { path: `^${OUTER}`, pathNot: '^src/$1/' },
    },
    {
      name: 'only-the-cli-starts-the-composition-root',
      severity: 'error',
      from: { path: '^src/', pathNot: `^(src/cli/|${ROOT})` },
      to: { path: `^${ROOT}` },
    },
    {
      name: 'no-circular-runtime-imports',
      comment: 'Type-only cycles are harmless (erased at build); a runtime cycle is an ordering bug waiting.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.build.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts'] },
  },
};
