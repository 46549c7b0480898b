import { dateTime } from '../format.js';
import type { DeliveryRecord } from '../types.js';
import { StatusBadge } from './status-badge.js';

function lastAttempt(d: DeliveryRecord): string {
  const last = d.attempts[d.attempts.length - 1];
  if (!last) return d.next_attempt_at ? `due ${dateTime(d.next_attempt_at)}` : '—';
  const answer = last.status_code !== null ? `HTTP ${last.status_code}` : (last.error ?? last.outcome);
  return `${d.attempts.length} × · last: ${answer}, ${last.latency_ms} ms`;
}

/** Deliveries with their attempts; with `onRedeliver`, a delivered or failed one can be sent again. */
export function DeliveryTable({ deliveries, onRedeliver }: { deliveries: readonly DeliveryRecord[]; onRedeliver?: (id: string) => void }) {
  if (deliveries.length === 0) return <p class="muted">No deliveries.</p>;
  return (
    <div class="table-wrap">
      <table class="deliveries stack">
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            {onRedeliver && <th scope="col">Action</th>}
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id}>
              <td data-label="Created">{dateTime(d.created_at)}</td>
              <td data-label="Event">
                <span class="mono small">{d.type}</span>
                {d.order_id && (
                  <>
                    {' '}
                    <a href={`/dashboard/orders/${d.order_id}`} class="small">
                      order
                    </a>
                  </>
                )}
              </td>
              <td data-label="Status">
                <StatusBadge status={d.status} />
              </td>
              <td data-label="Attempts" class="small">
                {lastAttempt(d)}
              </td>
              {onRedeliver && (
                <td data-label="Action">
                  {d.status !== 'pending' && (
                    <button type="button" class="secondary small" onClick={() => onRedeliver(d.id)} aria-label={`Redeliver ${d.id}`}>
                      Redeliver
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
