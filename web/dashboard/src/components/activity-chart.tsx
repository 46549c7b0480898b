import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import { money, STATUS_COLOURS, STATUSES } from '../format.js';
import type { Activity } from '../types.js';

// Only the parts drawn here are bundled (Chart.js is tree-shaken by registration).
Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);

interface Day {
  readonly date: string;
  readonly orders: Record<(typeof STATUSES)[number], number>;
  /** Charged and kept: FAILED orders were refunded, so they are not spend. */
  readonly spend: number;
}

/** Every day of the range, the quiet ones too, so the chart's axis is the calendar. */
export function daysOf(activity: Activity): Day[] {
  const days = new Map<string, { orders: Record<(typeof STATUSES)[number], number>; spend: number }>();
  for (let at = Date.parse(`${activity.from}T00:00:00Z`); at <= Date.parse(`${activity.to}T00:00:00Z`); at += 86_400_000) {
    days.set(new Date(at).toISOString().slice(0, 10), { orders: { SUCCESS: 0, PROCESSING: 0, PENDING: 0, FAILED: 0 }, spend: 0 });
  }
  for (const entry of activity.data) {
    const day = days.get(entry.date);
    if (!day) continue;
    day.orders[entry.status] += entry.orders;
    if (entry.status !== 'FAILED') day.spend = Math.round((day.spend + entry.deduction) * 100) / 100;
  }
  return [...days].map(([date, d]) => ({ date, ...d }));
}

/** Orders per day, stacked by status, and the spend per day on its own axis; a table says the same for screen readers. */
export function ActivityChart({ activity }: { activity: Activity }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const days = daysOf(activity);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      data: {
        labels: days.map((d) => d.date.slice(5)),
        datasets: [
          ...STATUSES.map((status) => ({
            type: 'bar' as const,
            label: `${status} orders`,
            data: days.map((d) => d.orders[status]),
            backgroundColor: STATUS_COLOURS[status],
            stack: 'orders',
            yAxisID: 'orders',
          })),
          {
            type: 'line' as const,
            label: `Spend (${activity.currency})`,
            data: days.map((d) => d.spend),
            borderColor: '#2b6cb0',
            backgroundColor: '#2b6cb0',
            yAxisID: 'spend',
            tension: 0.2,
            pointRadius: 2,
          },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { stacked: true, ticks: { maxRotation: 0, autoSkipPadding: 8 } },
          orders: { type: 'linear', position: 'left', stacked: true, beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: 'Orders' } },
          spend: { type: 'linear', position: 'right', beginAtZero: true, grid: { drawOnChartArea: false }, title: { display: true, text: activity.currency } },
        },
        plugins: { legend: { position: 'bottom', labels: { boxWidth: 12 } } },
      },
    });
    return () => chart.destroy();
  }, [activity]);
  const totals = days.reduce((sum, d) => sum + STATUSES.reduce((n, s) => n + d.orders[s], 0), 0);
  return (
    <figure class="chart">
      <div class="chart-box">
        <canvas ref={canvas} role="img" aria-label={`Orders per day by status and spend per day, ${activity.from} to ${activity.to}: ${totals} orders`} />
      </div>
      <figcaption>
        Orders per day by status, and spend per day, {activity.from} to {activity.to} (UTC days)
      </figcaption>
      <details>
        <summary>Show as a table</summary>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {STATUSES.map((s) => (
                  <th scope="col" key={s}>
                    {s}
                  </th>
                ))}
                <th scope="col">Spend</th>
              </tr>
            </thead>
            <tbody>
              {days
                .filter((d) => STATUSES.some((s) => d.orders[s] > 0))
                .map((d) => (
                  <tr key={d.date}>
                    <td>{d.date}</td>
                    {STATUSES.map((s) => (
                      <td key={s} class="num">
                        {d.orders[s]}
                      </td>
                    ))}
                    <td class="num">{money(d.spend, activity.currency)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
