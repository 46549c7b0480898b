import type { ExchangeRate } from '../domain/exchange-rate.js';
import { formatDecimal } from '../domain/money.js';
import { isoTime } from './common.js';

export const presentRate = (rate: ExchangeRate) => ({
  eurRon: formatDecimal(rate.eurRon, 4),
  source: rate.source,
  ...(rate.rateDate ? { rateDate: rate.rateDate } : {}),
  storedAt: isoTime(rate.storedAt),
});
