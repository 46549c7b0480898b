import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ProblemNote } from '../components/problem-note.js';
import { ShownOnce } from '../components/shown-once.js';
import { useAction } from '../components/use-action.js';
import { useLoad } from '../components/use-load.js';
import { dateTime } from '../format.js';
import { canWrite, useSession } from '../session.js';
import type { KeyRecord } from '../types.js';

/** The account's keys: created (shown once), revoked. Revoking the key this session came from signs you out. */
export function KeysPage() {
  const session = useSession();
  const writable = canWrite(session);
  const keys = useLoad(() => api<{ data: KeyRecord[] }>('/v1/keys'), []);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'full' | 'read'>('full');
  const [created, setCreated] = useState<string>();
  const { busy, error, run } = useAction();

  const create = async (event: Event) => {
    event.preventDefault();
    // One at a time: a double click makes one key.
    await run(async () => {
      const key = await api<{ id: string; key: string }>('/v1/keys', { method: 'POST', body: { ...(name.trim() ? { name: name.trim() } : {}), scope } });
      setCreated(key.key);
      setName('');
    });
    keys.reload();
  };
  const revoke = async (key: KeyRecord) => {
    const own = key.id === session.keyId;
    const question = own ? `Revoke ${key.prefix}…? It is the key you signed in with: you will be signed out.` : `Revoke ${key.prefix}…? It stops working everywhere within 2 seconds.`;
    if (!confirm(question)) return;
    await run(() => api(`/v1/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' }));
    keys.reload();
  };

  return (
    <section>
      <h1>API keys</h1>
      {created && <ShownOnce label="New API key" value={created} onDone={() => setCreated(undefined)} />}
      <ProblemNote error={error} />
      {writable && (
        <form class="card" onSubmit={create}>
          <h2>Create a key</h2>
          <div class="row wrap">
            <div class="field grow">
              <label for="key-name">Name (optional)</label>
              <input id="key-name" value={name} maxLength={100} placeholder="billing system" onInput={(e) => setName(e.currentTarget.value)} />
            </div>
            <div class="field">
              <label for="key-scope">Scope</label>
              <select id="key-scope" value={scope} onChange={(e) => setScope(e.currentTarget.value as 'full' | 'read')}>
                <option value="full">full: everything</option>
                <option value="read">read: look, never change</option>
              </select>
            </div>
          </div>
          <div class="actions">
            <button type="submit" disabled={busy}>
              Create key
            </button>
          </div>
        </form>
      )}
      <div class="card">
        <ProblemNote error={keys.error} />
        {keys.data && (
          <div class="table-wrap">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Name</th>
                  <th scope="col">Scope</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">State</th>
                  {writable && <th scope="col">Action</th>}
                </tr>
              </thead>
              <tbody>
                {keys.data.data.map((k) => (
                  <tr key={k.id}>
                    <td data-label="Key" class="mono">
                      {k.prefix}…{k.id === session.keyId && <span class="badge">this session</span>}
                    </td>
                    <td data-label="Name">{k.name ?? '—'}</td>
                    <td data-label="Scope">{k.scope}</td>
                    <td data-label="Created">{dateTime(k.created_at)}</td>
                    <td data-label="Last used">{dateTime(k.last_used_at)}</td>
                    <td data-label="State">{k.revoked ? <span class="badge status-failed">revoked</span> : <span class="badge status-success">active</span>}</td>
                    {writable && (
                      <td data-label="Action">
                        {!k.revoked && (
                          <button type="button" class="danger small" aria-label={`Revoke ${k.prefix}`} onClick={() => revoke(k)}>
                            Revoke
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}
