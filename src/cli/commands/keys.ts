import { Option, type Command } from 'commander';
import { KEY_SCOPES, type KeyScope } from '../../domain/api-key.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../../app/api-keys.js';
import { presentApiKey } from '../../contract/api-keys.js';
import { withDeps } from '../context.js';
import { emit } from '../output.js';

export function keysCommand(program: Command): void {
  const keys = program.command('keys').description('issue, list and revoke API keys');
  keys
    .command('create')
    .description('issue a key for an account (shown this once)')
    .requiredOption('--account <id>', 'account id')
    .option('--name <name>', 'a name to tell the key apart')
    .addOption(new Option('--scope <scope>', 'full, or read (GET endpoints and POST /v1/ping only)').choices([...KEY_SCOPES]).default('full'))
    .option('--json', 'print one JSON object')
    .action(async (opts: { account: string; name?: string; scope: KeyScope; json?: boolean }) =>
      withDeps(async (deps) => {
        const { apiKey, key } = await createApiKey(deps, opts.account, { name: opts.name ?? null, scope: opts.scope });
        const id = apiKey.id;
        emit(!!opts.json, { id, key, scope: apiKey.scope }, `key ${id} (${apiKey.scope}): ${key}\nstore it now: it is not shown again`);
      }),
    );
  keys
    .command('list')
    .description("list an account's keys (prefixes only)")
    .requiredOption('--account <id>', 'account id')
    .option('--json', 'print one JSON object')
    .action(async (opts: { account: string; json?: boolean }) =>
      withDeps(async (deps) => {
        const data = (await listApiKeys(deps, opts.account)).map(presentApiKey);
        emit(!!opts.json, { data }, data.map((k) => `${k.id}  ${k.prefix}…  ${k.revoked ? 'revoked' : 'active'}`).join('\n') || '(no keys)');
      }),
    );
  keys
    .command('revoke')
    .description('revoke a key; it stops working everywhere within 5 seconds')
    .argument('<keyId>', 'key id (key_…)')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, opts: { json?: boolean }) =>
      withDeps(async (deps) => {
        await revokeApiKey(deps, keyId);
        emit(!!opts.json, { id: keyId, revoked: true }, `revoked ${keyId}`);
      }),
    );
}
