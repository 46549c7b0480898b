import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { Pager } from '../components/pager.js';
import { ProblemNote } from '../components/problem-note.js';
import { StatusBadge } from '../components/status-badge.js';
import { useLoad } from '../components/use-load.js';
import { dateTime, money, STATUSES } from '../format.js';
import type { OrderRecord, Page } from '../types.js';

const PAGE_SIZE = 20;

interface Filters {
  status: string;
  phone: string;
  from: string;
  to: string;
}

/** The API's filters for the page's: whole UTC days, `to` included (the API's `to` is "created before"). */
function apiFilters(f: Filters): Record<string, string | undefined> {
  const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
  return {
    status: f.status || undefined,
    phone_number: f.phone.trim() || undefined,
    from: f.from ? `${f.from}T00:00:00.000Z` : undefined,
    to: f.to ? nextDay(f.to) : undefined,
  };
}

/** The account's orders, filtered and paged; the filters live in the address, so Back and links keep them. */
export function OrdersPage() {
  const location = useLocation();
  const applied: Filters = { status: location.query.status ?? '', phone: location.query.phone ?? '', from: location.query.from ?? '', to: location.query.to ?? '' };
  const page = Math.max(1, Number(location.query.page ?? '1') || 1);
  const [draft, setDraft] = useState<Filters>(applied);
  // Back and Forward change the applied filters: the form shows them again.
  useEffect(() => setDraft(applied), [location.url]);
  const orders = useLoad(() => api<Page<OrderRecord>>(`/v1/account/recharges${query({ ...apiFilters(applied), page, limit: PAGE_SIZE })}`), [location.url]);
  const go = (filters: Filters, toPage = 1) =>
    location.route(`/dashboard/orders${query({ status: filters.status, phone: filters.phone.trim(), from: filters.from, to: filters.to, page: toPage > 1 ? toPage : undefined })}`);
  const field = (name: keyof Filters) => (e: { currentTarget: HTMLInputElement | HTMLSelectElement }) => setDraft({ ...draft, [name]: e.currentTarget.value });
  const csv = `/v1/account/recharges${query({ ...apiFilters(applied), format: 'csv' })}`;
  return (
    <section>
      <h1>Orders</h1>
      <form
        class="card filters"
        onSubmit={(e) => {
          e.preventDefault();
          go(draft);
        }}
      >
        <div class="field">
          <label for="f-status">Status</label>
          <select id="f-status" value={draft.status} onChange={field('status')}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-phone">Phone number</label>
          <input id="f-phone" type="tel" inputMode="tel" value={draft.phone} onInput={field('phone')} placeholder="0744 123 456" />
        </div>
        <div class="field">
          <label for="f-from">From</label>
          <input id="f-from" type="date" value={draft.from} onInput={field('from')} aria-describedby="f-utc" />
        </div>
        <div class="field">
          <label for="f-to">To</label>
          <input id="f-to" type="date" value={draft.to} onInput={field('to')} aria-describedby="f-utc" />
        </div>
        <p id="f-utc" class="muted small span">Dates are whole UTC days, both included.</p>
        <div class="actions">
          <button type="submit">Apply filters</button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              const none = { status: '', phone: '', from: '', to: '' };
              setDraft(none);
              go(none);
            }}
          >
            Clear
          </button>
          <a class="button secondary" href={csv} download="recharges.csv">
            Download CSV
          </a>
        </div>
      </form>
      <ProblemNote error={orders.error} />
      {orders.data && (
        <>
          <div class="table-wrap card">
            <table class="orders stack">
              <caption class="visually-hidden">Orders, most recent first</caption>
              <thead>
                <tr>
                  <th scope="col">Number</th>
                  <th scope="col">Operator</th>
                  <th scope="col" class="num">
                    Amount
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {orders.data.data.length === 0 && (
                  <tr>
                    <td colSpan={5} class="muted">
                      No orders match.
                    </td>
                  </tr>
                )}
                {orders.data.data.map((o) => (
                  <tr key={o.recharge_uuid}>
                    <td data-label="Number">
                      <a href={`/dashboard/orders/${o.recharge_uuid}`}>{o.number}</a>
                    </td>
                    <td data-label="Operator">{o.network}</td>
                    <td data-label="Amount" class="num">
                      {money(o.amount, o.currency)}
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={o.recharge_status} />
                    </td>
                    <td data-label="Created">{dateTime(o.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} pages={orders.data.pagination.total_pages} total={orders.data.pagination.total} onPage={(p) => go(applied, p)} />
        </>
      )}
    </section>
  );
}
