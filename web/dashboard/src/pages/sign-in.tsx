import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ProblemNote } from '../components/problem-note.js';
import { useAction } from '../components/use-action.js';
import type { SignedIn } from '../types.js';

/** The key is exchanged for a session cookie; the page never keeps the key. */
export function SignInPage({ reason, onSignedIn }: { reason?: string | undefined; onSignedIn: (session: SignedIn) => void }) {
  const [key, setKey] = useState('');
  const { busy, error, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const session = await api<SignedIn>('/dashboard/session', { method: 'POST', headers: { 'x-authorization': key.trim() } });
      setKey('');
      onSignedIn(session);
    });
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
