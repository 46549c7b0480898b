import { api } from '../api.js';
import { ActivityChart } from '../components/activity-chart.js';
import { ProblemNote } from '../components/problem-note.js';
import { useLoad } from '../components/use-load.js';
import { money } from '../format.js';
import type { AccountSummary, Activity, Balance } from '../types.js';

export function OverviewPage() {
  const figures = useLoad(
    () => Promise.all([api<Balance>('/v1/account/balance'), api<AccountSummary>('/v1/account'), api<Activity>('/v1/account/activity?days=30')]),
    [],
  );
  if (figures.error) return <ProblemNote error={figures.error} />;
  if (!figures.data) return <p class="loading">Loading…</p>;
  const [balance, summary, activity] = figures.data;
  const r = summary.orderSummary.recharges;
  const c = summary.currency;
  return (
    <section>
      <h1>Overview</h1>
      <div class="cards">
        <div class="card figure" data-testid="balance">
          <h2>Balance</h2>
          <p class="big">{money(balance.balance, balance.currency)}</p>
        </div>
        <div class="card figure">
          <h2>Credit remaining</h2>
          <p class="big">{money(summary.creditRemaining, c)}</p>
        </div>
        <div class="card figure">
          <h2>Orders placed</h2>
          <p class="big">{r.count}</p>
        </div>
      </div>
      <div class="card">
        <h2>Last 30 days</h2>
        <ActivityChart activity={activity} />
      </div>
      <div class="card">
        <h2>Account summary</h2>
        <dl class="facts">
          <dt>Total deposits</dt>
          <dd>{money(summary.totalDeposits, c)}</dd>
          <dt>Total consumed</dt>
          <dd>{money(summary.totalConsumed, c)}</dd>
          <dt>Top-ups, net</dt>
          <dd>{money(r.totalAmountNet, c)}</dd>
          <dt>Top-ups, gross</dt>
          <dd>{money(r.totalAmountGross, c)}</dd>
          <dt>Fast recharge fees, gross</dt>
          <dd>{money(r.totalFastRechargeFeeGross, c)}</dd>
          <dt>VAT</dt>
          <dd>{money(r.totalVat, c)}</dd>
          <dt>Deducted in all</dt>
          <dd>{money(r.totalDeducted, c)}</dd>
        </dl>
      </div>
    </section>
  );
}
