import { AppError } from '../domain/errors.js';
import type { Deps } from './deps.js';

/**
 * Which webhook endpoint an order reports to. Webhook endpoints are not registered yet in this
 * version (issue: webhooks), so a named endpoint is always unknown and an unnamed request has none.
 */
export async function resolveWebhookName(_deps: Deps, _accountId: string, name: string | undefined): Promise<string | null> {
  if (name === undefined) return null;
  throw new AppError('unknown_webhook', `No webhook endpoint named "${name}" is registered for this account.`);
}
