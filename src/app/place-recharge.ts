import type { RechargeRequest } from '../contract/recharge.js';
import type { Principal } from '../domain/api-key.js';
import { AppError, type FieldProblem } from '../domain/errors.js';
import { formatDecimal } from '../domain/money.js';
import { decideEligibility } from '../domain/number-eligibility.js';
import { isOperator } from '../domain/operators.js';
import { totalsOf, type Order, type Placement } from '../domain/order.js';
import { passthroughText } from '../domain/passthrough.js';
import { parseRomanianMobile } from '../domain/phone-number.js';
import { priceEntry } from '../domain/pricing.js';
import { assessEntry, type AcceptedEntry } from '../domain/recharge-entry.js';
import { nearestAmounts, productFor, type UpstreamProduct } from '../domain/upstream-product.js';
import { vatRateAt } from '../domain/vat.js';
import { findAccount } from '../store/accounts.repository.js';
import type { Tx } from '../store/database.js';
import { findNumberChecks } from '../store/number-checks.repository.js';
import { notifyWorkers } from '../store/notify.js';
import { chargeForOrders, insertOrders } from '../store/orders.repository.js';
import { findPortedOperators } from '../store/ported-numbers.repository.js';
import type { Deps } from './deps.js';
import { idempotent, type IdempotencyOptions, type IdempotentOutcome } from './idempotency.js';
import { newUuid } from './ids.js';
import { CATALOGUE_UPSTREAMS } from './catalogue.js';
import { currentRate } from './rates.js';
import { resolveWebhookName } from './webhook-choice.js';

/**
 * Judges every entry against the numbers' current operators and this account's number checks, and,
 * when only catalogue upstreams are configured, against what they can deliver.
 */
async function acceptEntries(
  deps: Deps,
  tx: Tx,
  principal: Principal,
  request: RechargeRequest,
  now: number,
  catalogue: readonly UpstreamProduct[] | undefined,
): Promise<AcceptedEntry[]> {
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
    else if (catalogue && !productFor(catalogue, verdict.operator, verdict.amount)) problems.push(notAvailable(catalogue, verdict));
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

function notAvailable(catalogue: readonly UpstreamProduct[], entry: AcceptedEntry): FieldProblem {
  const nearest = nearestAmounts(catalogue, entry.operator, entry.amount).map((a) => formatDecimal(a));
  return {
    arrayPosition: entry.arrayPosition,
    field: 'amount',
    code: 'amount_not_available',
    message:
      nearest.length === 0
        ? `No upstream delivers top-ups to ${entry.operator} numbers right now.`
        : `No upstream delivers ${formatDecimal(entry.amount)} EUR to ${entry.operator} numbers; the nearest amounts available: ${nearest.join(', ')} EUR.`,
  };
}

/** What placement must check amounts against: the catalogues, when every configured upstream sells from one. */
async function deliverableProducts(deps: Deps): Promise<readonly UpstreamProduct[] | undefined> {
  const { upstreams } = deps.config;
  if (!upstreams.every((u) => CATALOGUE_UPSTREAMS.has(u))) return undefined;
  return (await deps.catalogue.current()).filter((p) => (upstreams as readonly string[]).includes(p.connector));
}

/**
 * The orders a recharge request would place, judged and priced by the rules in force now: the one
 * path both placing and quoting take, so a quote is exactly what a placement would charge.
 */
async function priceOrders(
  deps: Deps,
  tx: Tx,
  principal: Principal,
  request: RechargeRequest,
  catalogue: readonly UpstreamProduct[] | undefined,
  now: number,
): Promise<Order[]> {
  const passthrough = passthroughText(request.passthrough);
  const webhookName = await resolveWebhookName(deps, principal.accountId, request.webhook_name, tx);
  const entries = await acceptEntries(deps, tx, principal, request, now, catalogue);
  const rate = await currentRate(deps, tx);
  const vat = vatRateAt(now, deps.config.fixedVatRate);
  const requestId = newUuid(now);
  const documentId = typeof request.passthrough?.document_id === 'string' ? request.passthrough.document_id : null;
  return entries.map((entry): Order => {
    const price = priceEntry({
      amount: entry.amount,
      fast: entry.fast,
      fastFee: deps.config.fastRechargeFeeEur,
      eurRon: rate.eurRon,
      vat,
      accountCurrency: principal.currency,
    });
    return {
      id: newUuid(now),
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
  idempotency?: IdempotencyOptions<Placement>,
): Promise<IdempotentOutcome<Placement>> {
  // Read before the unit of work: a unit waits for nothing but its own statements.
  const catalogue = await deliverableProducts(deps);
  // One unit of work from the first read to the commit: on SQLite it joins a group commit whole,
  // instead of queueing for the connection once per read.
  const outcome = await idempotent(deps, principal.accountId, idempotency, request, (remember) => deps.store.transact(async (tx) => {
    const now = deps.clock.now();
    const orders = await priceOrders(deps, tx, principal, request, catalogue, now);
    const placement: Placement = { currency: principal.currency, orders };
    const totals = totalsOf(orders);
    await insertOrders(tx, orders);
    await remember(tx, placement);
    await notifyWorkers(tx, 'orders');
    // Last, so the account's row lock is held only for this statement and the commit.
    const charge = { accountId: principal.accountId, totals, orders, createdAt: now };
    if ((await chargeForOrders(tx, charge)) === undefined) {
      const account = await findAccount(tx, principal.accountId);
      throw new AppError(
        'insufficient_funds',
        `This request costs ${formatDecimal(totals.deduction)} ${principal.currency}; the balance is ${formatDecimal(account?.balance ?? 0n)} ${principal.currency}. Nothing was ordered or charged.`,
      );
    }
    return placement;
  }));
  if (!outcome.replayed) deps.signal.notify('orders');
  return outcome;
}

/** What a recharge request would cost now, and whether the balance covers it. */
export interface Quote {
  readonly currency: Placement['currency'];
  readonly orders: readonly Order[];
  readonly balance: bigint;
}

/**
 * Prices a recharge request exactly as placing it would (number checks, bounds, catalogue, rate, VAT,
 * fees), and reads the balance, storing and charging nothing: the same errors as a placement.
 */
export async function quoteRecharge(deps: Deps, principal: Principal, request: RechargeRequest): Promise<Quote> {
  const catalogue = await deliverableProducts(deps);
  return deps.store.transact(async (tx) => {
    const orders = await priceOrders(deps, tx, principal, request, catalogue, deps.clock.now());
    const account = await findAccount(tx, principal.accountId);
    return { currency: principal.currency, orders, balance: account?.balance ?? 0n };
  });
}
