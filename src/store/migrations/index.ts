import type { Migration } from 'kysely';
import type { Dialect } from '../dialect.js';
import { accountsAndLedger } from './0001-accounts-and-ledger.js';
import { orders } from './0002-orders.js';
import { webhooks } from './0003-webhooks.js';
import { rateLimits } from './0004-rate-limits.js';
import { orderListingIndex } from './0005-order-listing-index.js';
import { queueAndFilterIndexes } from './0006-queue-and-filter-indexes.js';
import { ledgerGuarantees } from './0007-ledger-guarantees.js';
import { failedDeliveriesIndex } from './0008-failed-deliveries-index.js';
import { upstreamAttempts } from './0009-upstream-attempts.js';
import { upstreamFloat } from './0010-upstream-float.js';
import { upstreamProducts } from './0011-upstream-products.js';
import { keyScopes } from './0012-key-scopes.js';
import { webhookRotationAndRemoval } from './0013-webhook-rotation-and-removal.js';
import { dashboardSessions } from './0014-dashboard-sessions.js';

/**
 * Migrations are code, listed here in order, so the built service and the tests run the very same
 * set on both dialects (no folder scanning, no file-extension games between src and dist).
 */
export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-accounts-and-ledger': accountsAndLedger(dialect),
    '0002-orders': orders(dialect),
    '0003-webhooks': webhooks(dialect),
    '0004-rate-limits': rateLimits(dialect),
    '0005-order-listing-index': orderListingIndex(dialect),
    '0006-queue-and-filter-indexes': queueAndFilterIndexes(dialect),
    '0007-ledger-guarantees': ledgerGuarantees(dialect),
    '0008-failed-deliveries-index': failedDeliveriesIndex(dialect),
    '0009-upstream-attempts': upstreamAttempts(dialect),
    '0010-upstream-float': upstreamFloat(dialect),
    '0011-upstream-products': upstreamProducts(dialect),
    '0012-key-scopes': keyScopes(dialect),
    '0013-webhook-rotation-and-removal': webhookRotationAndRemoval(dialect),
    '0014-dashboard-sessions': dashboardSessions(dialect),
  };
}
