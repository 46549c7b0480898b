import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { DeliveryTable } from '../components/delivery-table.js';
import { Pager } from '../components/pager.js';
import { ProblemNote } from '../components/problem-note.js';
import { ShownOnce } from '../components/shown-once.js';
import { useAction } from '../components/use-action.js';
import { useLoad } from '../components/use-load.js';
import { dateTime } from '../format.js';
import { canWrite, useSession } from '../session.js';
import type { DeliveryRecord, Page, WebhookRecord } from '../types.js';

const DELIVERY_PAGE = 20;

/** Endpoints (add, test, rotate, enable, delete) and the log of deliveries, with redeliver. */
export function WebhooksPage() {
  const writable = canWrite(useSession());
  const endpoints = useLoad(() => api<{ data: WebhookRecord[] }>('/v1/webhooks'), []);
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const deliveries = useLoad(() => api<Page<DeliveryRecord>>(`/v1/webhooks/deliveries${query({ status, page, limit: DELIVERY_PAGE })}`), [status, page]);
  const [secret, setSecret] = useState<{ label: string; value: string }>();
  const [notice, setNotice] = useState<string>();
  const { error, run } = useAction();

  /** Runs an action, shows its problem if any, and reads both lists again. */
  const act = async (action: () => Promise<void>) => {
    setNotice(undefined);
    await run(action);
    endpoints.reload();
    deliveries.reload();
  };
  const path = (name: string) => `/v1/webhooks/${encodeURIComponent(name)}`;

  return (
    <section>
      <h1>Webhooks</h1>
      {secret && <ShownOnce label={secret.label} value={secret.value} onDone={() => setSecret(undefined)} />}
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <ProblemNote error={error} />
      {writable && <AddWebhook onAdded={(name, value) => act(async () => setSecret({ label: `Signing secret of ${name}`, value }))} />}
      <div class="card">
        <h2>Endpoints</h2>
        <ProblemNote error={endpoints.error} />
        {endpoints.data && endpoints.data.data.length === 0 && <p class="muted">No webhook endpoints yet.</p>}
        {endpoints.data && endpoints.data.data.length > 0 && (
          <ul class="endpoints">
            {endpoints.data.data.map((w) => (
              <li key={w.name} class="endpoint">
                <div>
                  <strong>{w.name}</strong> <span class={`badge ${w.enabled ? 'status-success' : 'status-failed'}`}>{w.enabled ? 'enabled' : 'disabled'}</span>
                  <div class="mono small break">{w.url}</div>
                  <div class="muted small">
                    Added {dateTime(w.created_at)}
                    {w.disabled_reason && ` · disabled: ${w.disabled_reason}`}
                  </div>
                </div>
                {writable && (
                  <div class="actions">
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Send a test event to ${w.name}`}
                      onClick={() =>
                        act(async () => {
                          const { id } = await api<{ id: string }>(`${path(w.name)}/test`, { method: 'POST' });
                          setNotice(`Test event ${id} queued for ${w.name}; it shows in the deliveries below.`);
                          setTimeout(deliveries.reload, 1500);
                        })
                      }
                    >
                      Send test
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Rotate the secret of ${w.name}`}
                      onClick={() =>
                        confirm(`Rotate the signing secret of ${w.name}? For 24 hours deliveries carry signatures by both the old and the new secret.`) &&
                        act(async () => {
                          const rotated = await api<{ name: string; secret: string }>(`${path(w.name)}/rotate-secret`, { method: 'POST' });
                          setSecret({ label: `New signing secret of ${w.name}`, value: rotated.secret });
                        })
                      }
                    >
                      Rotate secret
                    </button>
                    {!w.enabled && (
                      <button type="button" class="secondary" aria-label={`Enable ${w.name}`} onClick={() => act(() => api(`${path(w.name)}/enable`, { method: 'POST' }))}>
                        Enable
                      </button>
                    )}
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Delete ${w.name}`}
                      onClick={() => confirm(`Delete the endpoint ${w.name}? Nothing more is delivered to it; its history stays.`) && act(() => api(path(w.name), { method: 'DELETE' }))}
                    >
                      Delete
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div class="card">
        <div class="row spread">
          <h2>Deliveries</h2>
          <div class="row">
            <label for="d-status">Status</label>
            <select
              id="d-status"
              value={status}
              onChange={(e) => {
                setStatus(e.currentTarget.value);
                setPage(1);
              }}
            >
              <option value="">Any</option>
              <option value="pending">pending</option>
              <option value="delivered">delivered</option>
              <option value="failed">failed</option>
            </select>
            <button type="button" class="secondary" onClick={deliveries.reload}>
              Refresh
            </button>
          </div>
        </div>
        <ProblemNote error={deliveries.error} />
        {deliveries.data && (
          <>
            <DeliveryTable
              deliveries={deliveries.data.data}
              {...(writable
                ? {
                    onRedeliver: (id: string) =>
                      act(async () => {
                        await api(`/v1/webhooks/deliveries/${encodeURIComponent(id)}/redeliver`, { method: 'POST' });
                        setNotice(`Delivery ${id} queued again.`);
                      }),
                  }
                : {})}
            />
            <Pager page={page} pages={deliveries.data.pagination.total_pages} total={deliveries.data.pagination.total} onPage={setPage} />
          </>
        )}
      </div>
    </section>
  );
}

function AddWebhook({ onAdded }: { onAdded: (name: string, secret: string) => void }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const { busy, error, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const created = await api<{ name: string; secret: string }>('/v1/webhooks', { method: 'POST', body: { name: name.trim(), url: url.trim() } });
      setName('');
      setUrl('');
      onAdded(created.name, created.secret);
    });
  };
  return (
    <form class="card" onSubmit={submit}>
      <h2>Add an endpoint</h2>
      <div class="row wrap">
        <div class="field">
          <label for="wh-name">Name</label>
          <input id="wh-name" required value={name} placeholder="orders" onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <div class="field grow">
          <label for="wh-url">URL</label>
          <input id="wh-url" type="url" required value={url} placeholder="https://example.com/hooks/topup" onInput={(e) => setUrl(e.currentTarget.value)} />
        </div>
      </div>
      <div class="actions">
        <button type="submit" disabled={busy}>
          Add webhook
        </button>
      </div>
      <ProblemNote error={error} />
    </form>
  );
}
