import { AppError, type FieldProblem } from '../domain/errors.js';
import { formatDecimal } from '../domain/money.js';
import { decideEligibility } from '../domain/number-eligibility.js';
import { isOperator } from '../domain/operators.js';
import { parseRomanianMobile } from '../domain/phone-number.js';
import { priceEntry } from '../domain/pricing.js';
import { assessEntry, type AcceptedEntry } from '../domain/recharge-entry.js';
import { vatRateAt } from '../domain/vat.js';
import { findAccount } from '../store/accounts.repository.js';
import type { Tx } from '../store/database.js';
import { findNumberChecks } from '../store/number-checks.repository.js';
import { notifyWorkers } from '../store/notify.js';
import { chargeForOrders, insertOrders, type OrderRecord } from '../store/orders.repository.js';
import { findPortedOperators } from '../store/ported-numbers.repository.js';
import type { Principal } from './api-keys.js';
import type { Deps } from './deps.js';
import { idempotent, type IdempotentResult } from './idempotency.js';
import { newUuid } from './ids.js';
import { orderSummaryEntry } from './order-views.js';
import { currentRate } from './rates.js';
import { resolveWebhookName } from './webhook-choice.js';

export interface RechargeRequest {
  readonly recharges: ReadonlyArray<{ phone_number: string; amount: number; fast_recharge?: boolean }>;
  readonly passthrough?: Record<string, unknown>;
  readonly fast_recharge?: boolean;
  readonly webhook_name?: string;
}

export const MAX_PASSTHROUGH_BYTES = 4096;
export const MAX_PASSTHROUGH_DEPTH = 8;

/** Depth of nested objects and arrays, measured without recursion (a hostile body may nest 50,000 deep). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_PASSTHROUGH_DEPTH) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function checkPassthrough(passthrough: Record<string, unknown> | undefined): string | null {
  if (passthrough === undefined) return null;
  if (depthOf(passthrough) > MAX_PASSTHROUGH_DEPTH) {
    throw new AppError('validation_failed', `passthrough may nest at most ${MAX_PASSTHROUGH_DEPTH} levels deep.`, [
      { field: 'passthrough', code: 'too_deep', message: `passthrough may nest at most ${MAX_PASSTHROUGH_DEPTH} levels deep` },
    ]);
  }
  const text = JSON.stringify(passthrough);
  if (Buffer.byteLength(text) > MAX_PASSTHROUGH_BYTES) {
    throw new AppError('validation_failed', 'passthrough must be at most 4 KiB of JSON.', [
      { field: 'passthrough', code: 'too_large', message: 'passthrough must be at most 4 KiB of JSON' },
    ]);
  }
  return text;
}

/** Judges every entry against the numbers' current operators and this account's number checks. */
async function acceptEntries(deps: Deps, tx: Tx, principal: Principal, request: RechargeRequest, now: number): Promise<AcceptedEntry[]> {
  const parsed = request.recharges.map((entry) => parseRomanianMobile(entry.phone_number));
  const msisdns = parsed.flatMap((p) => (p.ok ? [p.msisdn] : []));
  const [ported, checks] = await Promise.all([
    findPortedOperators(tx, msisdns),
    findNumberChecks(tx, principal.accountId, msisdns),
  ]);
  const checkedAt = new Map(checks.map((c) => [c.msisdn, c.checkedAt]));
  const rules = { environment: deps.config.environment, operators: deps.config.operators };
  const accepted: AcceptedEntry[] = [];
  const problems: FieldProblem[] = [];
  request.recharges.forEach((entry, arrayPosition) => {
    const number = parsed[arrayPosition]!;
    const portedTo = number.ok ? ported.get(number.msisdn) : undefined;
    const verdict = assessEntry(
      {
        arrayPosition,
        amount: entry.amount,
        fast: entry.fast_recharge ?? request.fast_recharge ?? false,
        number: number.ok ? decideEligibility(number, portedTo && isOperator(portedTo) ? portedTo : undefined, rules) : number,
        checkedAt: number.ok ? checkedAt.get(number.msisdn) : undefined,
      },
      { now, checkTtlMs: deps.config.numberCheckTtlSeconds * 1000 },
    );
    if (Array.isArray(verdict)) problems.push(...verdict);
    else accepted.push(verdict);
  });
  if (problems.length > 0) {
    const entries = new Set(problems.map((p) => p.arrayPosition)).size;
    throw new AppError(
      'invalid_recharge',
      `${entries} of ${request.recharges.length} entries cannot be topped up; nothing was ordered or charged.`,
      problems,
    );
  }
  return accepted;
}

/**
 * Places a batch of top-ups: all entries or none, priced with the rate and VAT in force now, paid for
 * with one guarded debit, and stored with their ledger entries (and idempotency record) in one
 * transaction. Workers are woken once it commits.
 */
export async function placeRecharge(
  deps: Deps,
  principal: Principal,
  request: RechargeRequest,
  idempotencyKey?: string,
): Promise<IdempotentResult> {
  const passthrough = checkPassthrough(request.passthrough);
  // One unit of work from the first read to the commit: on SQLite it joins a group commit whole,
  // instead of queueing for the connection once per read.
  const result = await idempotent(deps, principal.accountId, idempotencyKey, request, (remember) => deps.store.transact(async (tx) => {
    const now = deps.clock.now();
    const webhookName = await resolveWebhookName(deps, principal.accountId, request.webhook_name, tx);
    const entries = await acceptEntries(deps, tx, principal, request, now);
    const rate = await currentRate(deps, tx);
    const vat = vatRateAt(now, deps.config.fixedVatRate);
    const requestId = newUuid();
    const documentId = typeof request.passthrough?.document_id === 'string' ? request.passthrough.document_id : null;
    const orders: OrderRecord[] = entries.map((entry) => {
      const price = priceEntry({
        amount: entry.amount,
        fast: entry.fast,
        fastFee: deps.config.fastRechargeFeeEur,
        eurRon: rate.eurRon,
        vat,
        accountCurrency: principal.currency,
      });
      return {
        id: newUuid(),
        accountId: principal.accountId,
        requestId,
        arrayPosition: entry.arrayPosition,
        msisdn: entry.msisdn,
        operator: entry.operator,
        fast: entry.fast,
        currency: principal.currency,
        eurRon: rate.eurRon,
        vat,
        fastFee: price.fastRechargeFee,
        amount: price.amount,
        amountRon: price.amountInRon,
        fastFeeRon: price.fastRechargeFeeInRon,
        netRon: price.netInRon,
        grossRon: price.grossInRon,
        amountNet: price.amountNet,
        amountGross: price.amountGross,
        feeNet: price.feeNet,
        feeGross: price.feeGross,
        deduction: price.deduction,
        status: 'PENDING',
        attempts: 0,
        nextAttemptAt: now,
        claimedBy: null,
        operatorReference: null,
        failureReason: null,
        passthrough,
        documentId,
        webhookName,
        createdAt: now,
        updatedAt: now,
      };
    });
    const sum = (pick: (o: OrderRecord) => bigint) => orders.reduce((total, o) => total + pick(o), 0n);
    const totals = {
      count: BigInt(orders.length),
      deduction: sum((o) => o.deduction),
      amountNet: sum((o) => o.amountNet),
      amountGross: sum((o) => o.amountGross),
      feeNet: sum((o) => o.feeNet),
      feeGross: sum((o) => o.feeGross),
    };
    const body = {
      success: true as const,
      message: `${orders.length} recharge order${orders.length === 1 ? '' : 's'} registered; each is fulfilled asynchronously.`,
      currency: principal.currency,
      balanceDeduction: formatDecimal(totals.deduction),
      fastRecharge: orders.some((o) => o.fast),
      orderSummary: orders.map(orderSummaryEntry),
    };
    await insertOrders(tx, orders);
    await remember(tx, { status: 201, body });
    await notifyWorkers(tx, deps.store.dialect, 'orders');
    // Last, so the account's row lock is held only for this statement and the commit.
    const charge = { accountId: principal.accountId, totals, orders, createdAt: now };
    if ((await chargeForOrders(tx, deps.store.dialect, charge)) === undefined) {
      const account = await findAccount(tx, principal.accountId);
      throw new AppError(
        'insufficient_funds',
        `This request costs ${formatDecimal(totals.deduction)} ${principal.currency}; the balance is ${formatDecimal(account?.balance ?? 0n)} ${principal.currency}. Nothing was ordered or charged.`,
      );
    }
    return { status: 201 as const, body };
  }));
  if (!result.replayed) deps.signal.notify('orders');
  return result;
}
