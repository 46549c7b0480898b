import { DAY_MS, dayOf, MAX_ACTIVITY_DAYS, type DailyActivity } from '../domain/activity.js';
import type { Currency } from '../domain/currency.js';
import { AppError } from '../domain/errors.js';
import { dailyActivity } from '../store/order-activity.repository.js';
import { requireAccount } from './accounts.js';
import type { Deps } from './deps.js';

/** The account's orders per UTC day and status over the last `days` days, today included. */
export async function accountActivity(
  deps: Deps,
  accountId: string,
  days: number,
): Promise<{ firstDay: number; lastDay: number; currency: Currency; activity: DailyActivity[] }> {
  if (!Number.isInteger(days) || days < 1 || days > MAX_ACTIVITY_DAYS) {
    const message = `days must be a whole number from 1 to ${MAX_ACTIVITY_DAYS}`;
    throw new AppError('invalid_query', message, [{ field: 'days', code: 'invalid', message }]);
  }
  const account = await requireAccount(deps, accountId);
  const lastDay = dayOf(deps.clock.now());
  const firstDay = lastDay - days + 1;
  return { firstDay, lastDay, currency: account.currency, activity: await dailyActivity(deps.store.db, accountId, firstDay * DAY_MS) };
}
