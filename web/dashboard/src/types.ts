// The wire types, taken from the service's own contract (types only: nothing of the server is bundled).
import type { Static } from '@sinclair/typebox';
import type { ApiKeyRecordSchema } from '../../../src/contract/api-keys.js';
import type { PaginationSchema } from '../../../src/contract/common.js';
import type { DeliverySchema, WebhookRecordSchema } from '../../../src/contract/webhooks.js';

export type { OrderRecord, OrderDetail } from '../../../src/contract/orders.js';
export type { AccountSummary, Balance } from '../../../src/contract/account.js';
export type { Activity } from '../../../src/contract/activity.js';
export type { RechargeQuote, RechargePlaced } from '../../../src/contract/recharge.js';

export type WebhookRecord = Static<typeof WebhookRecordSchema>;
export type DeliveryRecord = Static<typeof DeliverySchema>;
export type KeyRecord = Static<typeof ApiKeyRecordSchema>;
export type { CheckNumberResult as CheckNumber } from '../../../src/contract/check-number.js';

/** A page of a listing, as the API's paginated envelope carries it (page-numbered). */
export interface Page<T> {
  readonly data: T[];
  readonly pagination: Static<typeof PaginationSchema>;
}

/** Who is signed in: GET /dashboard/session. */
export interface SignedIn {
  readonly accountId: string;
  readonly currency: string;
  readonly environment: string;
  readonly scope: 'full' | 'read';
  readonly keyId: string;
}
