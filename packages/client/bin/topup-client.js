#!/usr/bin/env node
// The installed `topup-client` command. It is committed (not built) so that npm links it at install
// time, before `npm run build` has made dist/; it runs the bundled command line from there.
await import('../dist/cli/main.js');
