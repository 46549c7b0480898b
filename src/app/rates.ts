import { parseBnrFeed } from '../domain/bnr-feed.js';
import { AppError } from '../domain/errors.js';
import type { ExchangeRate } from '../domain/exchange-rate.js';
import { parseDecimal } from '../domain/money.js';
import type { Db, Tx } from '../store/database.js';
import { insertRate, newestRate } from '../store/rates.repository.js';
import type { Deps } from './deps.js';
import { newUuid } from './ids.js';

/** The rate an order is priced with, and where it came from. */
export interface AppliedRate {
  /** Units of 0.0001. */
  readonly eurRon: bigint;
  readonly source: string;
  readonly asOf: number;
}

/** DESIGN.md: in production a rate older than this is no rate at all. */
export const MAX_RATE_AGE_MS = 4 * 24 * 3600 * 1000;
/** Staging with no rate ever stored prices with this (test credit only), so a fresh demo works at once. */
export const STAGING_DEFAULT_EUR_RON = 49_773n;

const sane = (rate: bigint) => rate >= 1_0000n && rate <= 100_0000n;

/** The moment a stored rate speaks for: its publishing day when known, else when it was stored. */
const asOf = (rateDate: string | null, storedAt: number) => (rateDate ? Math.min(Date.parse(`${rateDate}T00:00:00Z`), storedAt) : storedAt);

export async function setRate(deps: Deps, text: string): Promise<ExchangeRate> {
  const eurRon = parseDecimal(text, 4);
  if (eurRon === undefined || !sane(eurRon)) {
    throw new AppError('validation_failed', 'The EUR/RON rate must be a number from 1 to 100 with at most 4 decimals, e.g. 4.9773.');
  }
  const now = deps.clock.now();
  const stored: ExchangeRate = { id: newUuid(now), eurRon, source: 'manual', rateDate: null, storedAt: now };
  await insertRate(deps.store.db, stored);
  return stored;
}

/** Reads the National Bank of Romania feed (TOPUP_BNR_FEED_URL) and stores its EUR rate. */
export async function fetchRate(deps: Deps): Promise<ExchangeRate> {
  let xml: string;
  try {
    xml = await deps.readFeed(deps.config.bnrFeedUrl);
  } catch (error) {
    throw new AppError('unavailable', `Could not read the rates feed at ${deps.config.bnrFeedUrl}: ${(error as Error).message}`);
  }
  const rate = parseBnrFeed(xml);
  if (!rate || !sane(rate.eurRon)) throw new AppError('unavailable', 'The rates feed has no usable EUR rate.');
  const now = deps.clock.now();
  const stored: ExchangeRate = { id: newUuid(now), eurRon: rate.eurRon, source: 'bnr', rateDate: rate.date, storedAt: now };
  await insertRate(deps.store.db, stored);
  return stored;
}

/**
 * The rate to price an order with: the fixed setting, else the newest stored rate. Production never
 * guesses: no rate younger than 4 days is 503 rate_unavailable.
 */
export async function currentRate(deps: Deps, db: Db | Tx = deps.store.db): Promise<AppliedRate> {
  const now = deps.clock.now();
  if (deps.config.fixedEurRonRate !== undefined) return { eurRon: deps.config.fixedEurRonRate, source: 'setting', asOf: now };
  const stored = await newestRate(db);
  if (deps.config.environment === 'production') {
    if (!stored || now - asOf(stored.rateDate, stored.storedAt) > MAX_RATE_AGE_MS) {
      throw new AppError('rate_unavailable', 'No EUR/RON exchange rate younger than 4 days is available; orders cannot be priced now.');
    }
  }
  if (!stored) return { eurRon: STAGING_DEFAULT_EUR_RON, source: 'staging-default', asOf: now };
  return { eurRon: stored.eurRon, source: stored.source, asOf: asOf(stored.rateDate, stored.storedAt) };
}
