import { api, query } from '../api.js';
import { DeliveryTable } from '../components/delivery-table.js';
import { ProblemNote } from '../components/problem-note.js';
import { StatusBadge } from '../components/status-badge.js';
import { useLoad } from '../components/use-load.js';
import { dateTime, money } from '../format.js';
import type { DeliveryRecord, OrderDetail, Page } from '../types.js';

/** One order: its pricing, step by step, and the webhook deliveries that told of it. */
export function OrderDetailPage({ id: given }: { id: string }) {
  // Order ids are lowercase UUIDs; the address may not be.
  const id = given.toLowerCase();
  const order = useLoad(() => api<OrderDetail>(`/v1/account/recharges/${encodeURIComponent(id)}`), [id]);
  const deliveries = useLoad(() => api<Page<DeliveryRecord>>(`/v1/webhooks/deliveries${query({ order_id: id, limit: 100 })}`), [id]);
  if (order.error) return <ProblemNote error={order.error} />;
  if (!order.data) return <p class="loading">Loading…</p>;
  const o = order.data;
  const p = o.pricing;
  return (
    <section>
      <p>
        <a href="/dashboard/orders">← Orders</a>
      </p>
      <h1>Order {o.number}</h1>
      <div class="card">
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <StatusBadge status={o.recharge_status} />
            {o.failure_reason && <span class="muted"> {o.failure_reason}</span>}
          </dd>
          <dt>Order id</dt>
          <dd class="mono">{o.recharge_uuid}</dd>
          <dt>Operator</dt>
          <dd>{o.network}</dd>
          <dt>Fast recharge</dt>
          <dd>{o.fast_recharge ? 'yes' : 'no'}</dd>
          <dt>Created</dt>
          <dd>{dateTime(o.created_at)}</dd>
          <dt>Updated</dt>
          <dd>{dateTime(o.updated_at)}</dd>
          <dt>Operator reference</dt>
          <dd class="mono">{o.operator_reference ?? '—'}</dd>
        </dl>
      </div>
      <div class="card">
        <h2>Pricing</h2>
        <dl class="facts">
          <dt>Top-up</dt>
          <dd>{money(p.amount, 'EUR')}</dd>
          <dt>At EUR/RON {p.eurronRateApplied}</dt>
          <dd>{money(p.amountInRon, 'RON')}</dd>
          <dt>Fast recharge fee</dt>
          <dd>
            {money(p.fastRechargeFee, 'EUR')} ({money(p.fastRechargeFeeInRon, 'RON')})
          </dd>
          <dt>Net</dt>
          <dd>{money(p.netInRon, 'RON')}</dd>
          <dt>VAT at {Math.round(Number(p.vatRateApplied) * 100)} %</dt>
          <dd>{money(p.grossInRon, 'RON')} gross</dd>
          <dt>Deducted from your balance</dt>
          <dd class="strong">{money(p.deduction, p.deductionCurrency)}</dd>
        </dl>
      </div>
      <div class="card">
        <h2>Webhook deliveries</h2>
        <ProblemNote error={deliveries.error} />
        {deliveries.data && <DeliveryTable deliveries={deliveries.data.data} />}
      </div>
    </section>
  );
}
