import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { ProblemNote } from '../components/problem-note.js';
import { asApiError } from '../components/use-load.js';
import type { SignedIn } from '../types.js';

/** The key is exchanged for a session cookie; the page never keeps the key. */
export function SignInPage({ reason, onSignedIn }: { reason?: string | undefined; onSignedIn: (session: SignedIn) => void }) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const session = await api<SignedIn>('/dashboard/session', { method: 'POST', headers: { 'x-authorization': key.trim() } });
      setKey('');
      onSignedIn(session);
    } catch (e) {
      setError(asApiError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <form onSubmit={submit} class="card">
        <h1>Top-up dashboard</h1>
        {reason && <p class="notice">{reason}</p>}
        <label for="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" spellcheck={false} required value={key} onInput={(e) => setKey(e.currentTarget.value)} />
        <p class="muted small">A key of your account (tk_live_… or tk_test_…). A read key signs you in read-only.</p>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <ProblemNote error={error} />
      </form>
    </main>
  );
}
