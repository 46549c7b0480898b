import type { ColumnType, Generated } from 'kysely';

/**
 * Row types as the drivers hand them back. Integers may arrive as `number` or `bigint` depending on
 * dialect and column width (SQLite is opened with safe integers, PostgreSQL parses int8 as BigInt), so
 * integer columns are typed as either and the repositories convert them once, explicitly.
 */
export type DbInt = ColumnType<number | bigint, number | bigint, number | bigint>;
/** An integer column with a database default: optional on insert. */
export type DbIntWithDefault = ColumnType<number | bigint, number | bigint | undefined, number | bigint>;
/** 0 or 1: both dialects store flags as integers so one migration serves both. */
export type DbFlag = DbInt;

export interface AccountsTable {
  id: string;
  name: string;
  currency: string;
  /** Minor units of the account's currency; CHECK (balance >= 0). */
  balance: DbIntWithDefault;
  total_deposits: DbIntWithDefault;
  /** Totals over orders that are not FAILED, in the account's currency, kept in the order's transaction. */
  orders_count: DbIntWithDefault;
  orders_amount_net: DbIntWithDefault;
  orders_amount_gross: DbIntWithDefault;
  orders_fee_net: DbIntWithDefault;
  orders_fee_gross: DbIntWithDefault;
  orders_placed: DbIntWithDefault;
  created_at: DbInt;
}

/** A dashboard sign-in: the digest of its id, the key it was made from, and when it was last used. */
export interface DashboardSessionsTable {
  digest: string;
  api_key_id: string;
  account_id: string;
  created_at: DbInt;
  last_seen_at: DbInt;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  environment: string;
  /** The first characters of the key, safe to show, so a person can tell keys apart. */
  display_prefix: string;
  /** Hex SHA-256 of the whole key; the key itself is never stored. */
  digest: string;
  created_at: DbInt;
  revoked_at: DbInt | null;
  name: string | null;
  /** `full`, or `read` (GET endpoints and /v1/ping only). */
  scope: ColumnType<string, string | undefined, string>;
  /** When it last authenticated a request, to the minute. */
  last_used_at: DbInt | null;
}

export interface DepositsTable {
  id: string;
  account_id: string;
  amount: DbInt;
  currency: string;
  reference: string | null;
  created_at: DbInt;
}

export interface LedgerEntriesTable {
  id: Generated<number | bigint>;
  account_id: string;
  /** deposit | recharge | refund */
  kind: string;
  /** Signed minor units: credit positive, debit negative. Entries are only ever appended. */
  amount: DbInt;
  balance_after: DbInt;
  deposit_id: string | null;
  order_id: string | null;
  created_at: DbInt;
}

export interface NumberChecksTable {
  account_id: string;
  msisdn: string;
  operator: string;
  checked_at: DbInt;
}

export interface PortedNumbersTable {
  msisdn: string;
  operator: string;
  imported_at: DbInt;
}

export interface ExchangeRatesTable {
  id: string;
  /** Units of 0.0001 RON per EUR. */
  eur_ron: DbInt;
  source: string;
  rate_date: string | null;
  stored_at: DbInt;
}

export interface OrdersTable {
  id: string;
  account_id: string;
  request_id: string;
  array_position: DbInt;
  msisdn: string;
  operator: string;
  /** Euro cents. */
  amount: DbInt;
  fast: DbFlag;
  /** The account's currency: the currency of deduction and of the *_net/*_gross figures. */
  currency: string;
  eur_ron_rate: DbInt;
  vat_rate: DbInt;
  fast_fee: DbInt;
  amount_ron: DbInt;
  fast_fee_ron: DbInt;
  net_ron: DbInt;
  gross_ron: DbInt;
  amount_net: DbInt;
  amount_gross: DbInt;
  fee_net: DbInt;
  fee_gross: DbInt;
  deduction: DbInt;
  status: string;
  attempts: DbIntWithDefault;
  next_attempt_at: DbInt;
  /** The worker holding a PROCESSING order; next_attempt_at is then when its claim expires. */
  claimed_by: string | null;
  operator_reference: string | null;
  failure_reason: string | null;
  /** JSON text. */
  passthrough: string | null;
  document_id: string | null;
  webhook_name: string | null;
  created_at: DbInt;
  updated_at: DbInt;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  request_hash: string;
  state: string;
  status_code: DbInt | null;
  response: string | null;
  /** While running: after this instant the request is taken to have died and the key may be taken over. */
  locked_until: DbInt;
  created_at: DbInt;
}

export interface SimulatorTopupsTable {
  recharge_id: string;
  msisdn: string;
  amount: DbInt;
  outcome: string;
  reference: string;
  /** How many times the operator was asked to perform this top-up (it performs it once). */
  requests: DbInt;
  created_at: DbInt;
}

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  name: string;
  url: string;
  /** whsec_… as issued: the signing key of both signature schemes. */
  secret: string;
  disabled_at: DbInt | null;
  disabled_reason: string | null;
  created_at: DbInt;
  /** The secret before the last rotation, still signing until previous_secret_until. */
  previous_secret: string | null;
  previous_secret_until: DbInt | null;
  deleted_at: DbInt | null;
}

export interface WebhookEventsTable {
  /** The webhook-id header: stable across retries, so receivers can de-duplicate. */
  id: string;
  account_id: string;
  endpoint_id: string;
  order_id: string;
  type: string;
  /** The exact body sent on every attempt. */
  payload: string;
  status: string;
  attempts: DbIntWithDefault;
  next_attempt_at: DbInt;
  claimed_by: string | null;
  last_status_code: DbInt | null;
  last_error: string | null;
  created_at: DbInt;
  delivered_at: DbInt | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number | bigint>;
  event_id: string;
  attempted_at: DbInt;
  status_code: DbInt | null;
  latency_ms: DbInt;
  error: string | null;
  outcome: string;
}

export interface UpstreamAttemptsTable {
  reference: string;
  order_id: string;
  number: DbInt;
  connector: string;
  state: string;
  upstream_id: string | null;
  operator_reference: string | null;
  /** Minor units of cost_currency. */
  cost: DbInt | null;
  cost_currency: string | null;
  detail: string | null;
  created_at: DbInt;
  updated_at: DbInt;
}

export interface UpstreamBalancesTable {
  connector: string;
  /** Minor units of currency, as last read. */
  available: DbInt | null;
  currency: string | null;
  checked_at: DbInt | null;
  out_of_float_since: DbInt | null;
}

export interface UpstreamProductsTable {
  connector: string;
  product_id: string;
  operator: string;
  name: string;
  side: string;
  kind: string;
  /** Euro cents: a fixed product's amount, or a ranged one's bounds and step. */
  amount: DbInt | null;
  min: DbInt | null;
  max: DbInt | null;
  increment: DbInt | null;
  synced_at: DbInt;
}

export interface OrderResolutionsTable {
  order_id: string;
  outcome: string;
  note: string;
  previous_status: string;
  resolved_at: DbInt;
}

export interface RateLimitCountersTable {
  key: string;
  window_start: DbInt;
  count: DbInt;
}

export interface Database {
  rate_limit_counters: RateLimitCountersTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_attempts: WebhookAttemptsTable;
  exchange_rates: ExchangeRatesTable;
  orders: OrdersTable;
  idempotency_keys: IdempotencyKeysTable;
  simulator_topups: SimulatorTopupsTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  deposits: DepositsTable;
  ledger_entries: LedgerEntriesTable;
  number_checks: NumberChecksTable;
  ported_numbers: PortedNumbersTable;
  upstream_attempts: UpstreamAttemptsTable;
  order_resolutions: OrderResolutionsTable;
  upstream_balances: UpstreamBalancesTable;
  upstream_products: UpstreamProductsTable;
  dashboard_sessions: DashboardSessionsTable;
}
