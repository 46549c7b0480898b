import { AppError } from '../domain/errors.js';
import { DEFAULT_WEBHOOK_NAME } from '../domain/webhook-endpoint.js';
import type { Db, Tx } from '../store/database.js';
import { findEndpointByName } from '../store/webhooks.repository.js';
import type { Deps } from './deps.js';

/**
 * Which webhook endpoint an order reports to: the one named in the request (422 unknown_webhook when
 * the account has none by that name), else the endpoint named `default` if there is one, else none.
 */
export async function resolveWebhookName(deps: Deps, accountId: string, name: string | undefined, db: Db | Tx = deps.store.db): Promise<string | null> {
  if (name !== undefined) {
    if (await findEndpointByName(db, accountId, name)) return name;
    throw new AppError('unknown_webhook', `No webhook endpoint named "${name}" is registered for this account.`);
  }
  return (await findEndpointByName(db, accountId, DEFAULT_WEBHOOK_NAME)) ? DEFAULT_WEBHOOK_NAME : null;
}
