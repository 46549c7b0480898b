import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { ProblemNote } from '../components/problem-note.js';
import { asApiError } from '../components/use-load.js';
import { money, newIdempotencyKey } from '../format.js';
import { canWrite, useSession } from '../session.js';
import type { CheckNumber, RechargePlaced, RechargeQuote } from '../types.js';

interface Row {
  phone: string;
  amount: string;
}

/** What Review settled on: the body to place, its quote, and the one idempotency key Confirm will use. */
interface Reviewed {
  readonly body: { recharges: { phone_number: string; amount: number }[]; fast_recharge: boolean };
  readonly quote: RechargeQuote;
  readonly idempotencyKey: string;
}

const EMPTY: Row = { phone: '', amount: '' };
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** "5", "12.5", "12,50" → a number of at most two decimals, or undefined. */
function parseAmount(text: string): number | undefined {
  const normal = text.trim().replace(',', '.');
  return /^\d+(\.\d{1,2})?$/.test(normal) ? Number(normal) : undefined;
}

/**
 * Rows of number and amount → Review (each number checked, as the API requires before ordering, then
 * priced by the quote endpoint: nothing is charged) → Confirm (placed once, under the key made at Review).
 */
export function NewTopupPage() {
  const session = useSession();
  const [rows, setRows] = useState<Row[]>([{ ...EMPTY }]);
  const [fast, setFast] = useState(false);
  const [rowErrors, setRowErrors] = useState<Record<number, string>>({});
  const [reviewed, setReviewed] = useState<Reviewed>();
  const [placed, setPlaced] = useState<RechargePlaced>();
  const [busy, setBusy] = useState<'review' | 'confirm'>();
  const [error, setError] = useState<ApiError>();
  // Every edit starts a new round: a Review still running when the form changed is thrown away, so a
  // quote (and its key) always matches what the form shows.
  const round = useRef(0);

  if (!canWrite(session)) return <p class="notice">This is a read key: it cannot place orders. Sign in with a full key to top up.</p>;

  const edit = (change: () => void) => {
    round.current++;
    change();
    setReviewed(undefined); // anything changed after Review must be reviewed again, under a new key
    setPlaced(undefined);
  };
  const setRow = (i: number, row: Partial<Row>) => edit(() => setRows(rows.map((r, j) => (j === i ? { ...r, ...row } : r))));

  const review = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    const problems: Record<number, string> = {};
    rows.forEach((r, i) => {
      if (r.phone.trim() === '') problems[i] = 'Enter a phone number.';
      else if (parseAmount(r.amount) === undefined) problems[i] = 'Enter the amount in EUR, such as 5 or 12.50.';
    });
    setRowErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy('review');
    const mine = ++round.current;
    const stale = () => mine !== round.current;
    try {
      const distinct = [...new Set(rows.map((r) => r.phone.trim()))];
      const checks = new Map<string, CheckNumber>();
      await Promise.all(distinct.map(async (phone) => checks.set(phone, await api<CheckNumber>('/v1/check-number', { method: 'POST', body: { phone_number: phone } }))));
      if (stale()) return;
      rows.forEach((r, i) => {
        const check = checks.get(r.phone.trim())!;
        if (!check.isValid) problems[i] = check.message;
      });
      setRowErrors(problems);
      if (Object.keys(problems).length > 0) return;
      const body = {
        recharges: rows.map((r) => {
          const check = checks.get(r.phone.trim()) as Extract<CheckNumber, { isValid: true }>;
          return { phone_number: check.sanitizedNumber, amount: parseAmount(r.amount)! };
        }),
        fast_recharge: fast,
      };
      const quote = await api<RechargeQuote>('/v1/recharge/quote', { method: 'POST', body });
      if (stale()) return;
      setReviewed({ body, quote, idempotencyKey: newIdempotencyKey() });
    } catch (e) {
      if (!stale()) setError(asApiError(e));
    } finally {
      setBusy(undefined);
    }
  };

  const confirm = async () => {
    if (!reviewed || busy) return;
    setBusy('confirm');
    setError(undefined);
    try {
      // The same key on every try: a retry, a double click or a lost answer never orders twice.
      for (let attempt = 0; ; attempt++) {
        try {
          const result = await api<RechargePlaced>('/v1/recharge', { method: 'POST', body: reviewed.body, headers: { 'idempotency-key': reviewed.idempotencyKey } });
          setPlaced(result);
          setReviewed(undefined);
          setRows([{ ...EMPTY }]);
          setFast(false);
          return;
        } catch (e) {
          const retryable = e instanceof ApiError && (e.code === 'idempotency_key_in_use' || e.status === 0 || e.status >= 500);
          if (!retryable || attempt >= 4) throw e;
          await wait(500 * 2 ** attempt);
        }
      }
    } catch (e) {
      setError(asApiError(e));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section>
      <h1>New top-up</h1>
      {placed && (
        <div class="card success" role="status">
          <p>
            {placed.message} {money(placed.balanceDeduction, placed.currency)} deducted.
          </p>
          <ul>
            {placed.orderSummary.map((o) => (
              <li key={o.rechargeId}>
                <a href={`/dashboard/orders/${o.rechargeId}`}>
                  {o.phoneNumber} · {money(o.amount, 'EUR')} · {o.operator}
                </a>
              </li>
            ))}
          </ul>
          <p>
            <a href="/dashboard/orders">See all orders</a>
          </p>
        </div>
      )}
      <form class="card" onSubmit={review}>
        {rows.map((row, i) => (
          <fieldset class="topup-row" key={i}>
            <legend class="visually-hidden">Top-up {i + 1}</legend>
            <div class="field">
              <label for={`phone-${i}`}>Phone number</label>
              <input
                id={`phone-${i}`}
                type="tel"
                inputMode="tel"
                autoComplete="off"
                required
                value={row.phone}
                placeholder="0744 123 456"
                aria-invalid={rowErrors[i] ? true : undefined}
                aria-describedby={rowErrors[i] ? `row-error-${i}` : undefined}
                onInput={(e) => setRow(i, { phone: e.currentTarget.value })}
              />
            </div>
            <div class="field">
              <label for={`amount-${i}`}>Amount (EUR)</label>
              <input
                id={`amount-${i}`}
                inputMode="decimal"
                required
                value={row.amount}
                placeholder="10"
                aria-invalid={rowErrors[i] ? true : undefined}
                aria-describedby={rowErrors[i] ? `row-error-${i}` : undefined}
                onInput={(e) => setRow(i, { amount: e.currentTarget.value })}
              />
            </div>
            {rows.length > 1 && (
              <button type="button" class="secondary" aria-label={`Remove top-up ${i + 1}`} onClick={() => edit(() => setRows(rows.filter((_, j) => j !== i)))}>
                Remove
              </button>
            )}
            {rowErrors[i] && (
              <p class="field-error" id={`row-error-${i}`}>
                {rowErrors[i]}
              </p>
            )}
          </fieldset>
        ))}
        <div class="actions">
          <button type="button" class="secondary" onClick={() => edit(() => setRows([...rows, { ...EMPTY }]))}>
            Add another number
          </button>
        </div>
        <label class="check">
          <input type="checkbox" checked={fast} onChange={(e) => edit(() => setFast(e.currentTarget.checked))} /> Fast recharge
        </label>
        <div class="actions">
          <button type="submit" disabled={busy !== undefined}>
            {busy === 'review' ? 'Reviewing…' : 'Review'}
          </button>
        </div>
        <ProblemNote error={error} />
      </form>
      {reviewed && <QuoteCard reviewed={reviewed} busy={busy === 'confirm'} onConfirm={confirm} />}
    </section>
  );
}

function QuoteCard({ reviewed, busy, onConfirm }: { reviewed: Reviewed; busy: boolean; onConfirm: () => void }) {
  const q = reviewed.quote;
  const title = useRef<HTMLHeadingElement>(null);
  // The quote is news: focus moves to it, so keyboard and screen-reader users land on what to confirm.
  useEffect(() => title.current?.focus(), [reviewed]);
  return (
    <div class="card quote" aria-labelledby="quote-title">
      <h2 id="quote-title" ref={title} tabIndex={-1}>
        Review
      </h2>
      <div class="table-wrap">
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Operator</th>
              <th scope="col" class="num">
                Amount
              </th>
              <th scope="col" class="num">
                Fast fee
              </th>
              <th scope="col" class="num">
                Deducted
              </th>
            </tr>
          </thead>
          <tbody>
            {q.orderSummary.map((o) => (
              <tr key={o.arrayPosition}>
                <td data-label="Number">{o.phoneNumber}</td>
                <td data-label="Operator">{o.operator}</td>
                <td data-label="Amount" class="num">
                  {money(o.amount, 'EUR')}
                </td>
                <td data-label="Fast fee" class="num">
                  {money(o.fastRechargeFee, 'EUR')}
                </td>
                <td data-label="Deducted" class="num">
                  {money(o.deduction, q.currency)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl class="facts">
        <dt>Total</dt>
        <dd class="strong" data-testid="quote-total">
          {money(q.balanceDeduction, q.currency)}
        </dd>
        <dt>Balance after</dt>
        <dd>{money(q.balanceAfter, q.currency)}</dd>
      </dl>
      {!q.sufficientFunds && <p class="problem">Your balance does not cover this. Add credit, or order less.</p>}
      <div class="actions">
        <button type="button" onClick={onConfirm} disabled={busy || !q.sufficientFunds}>
          {busy ? 'Placing…' : 'Confirm'}
        </button>
      </div>
    </div>
  );
}
