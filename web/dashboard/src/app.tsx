import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, rememberSignedIn, whenSignedOut } from './api.js';
import { ProblemNote } from './components/problem-note.js';
import { useAction } from './components/use-action.js';
import { SessionContext } from './session.js';
import type { SignedIn } from './types.js';
import { SignInPage } from './pages/sign-in.js';
import { OverviewPage } from './pages/overview.js';
import { OrdersPage } from './pages/orders.js';
import { OrderDetailPage } from './pages/order-detail.js';
import { NewTopupPage } from './pages/new-topup.js';
import { WebhooksPage } from './pages/webhooks.js';
import { KeysPage } from './pages/keys.js';

const PAGES = [
  { path: '/dashboard', label: 'Overview' },
  { path: '/dashboard/orders', label: 'Orders' },
  { path: '/dashboard/new', label: 'New top-up', write: true },
  { path: '/dashboard/webhooks', label: 'Webhooks' },
  { path: '/dashboard/keys', label: 'API keys' },
];

type State = { kind: 'loading' } | { kind: 'signed-out'; reason?: string } | { kind: 'signed-in'; session: SignedIn };

export function App() {
  return (
    <LocationProvider scope="/dashboard">
      <Shell />
    </LocationProvider>
  );
}

function Shell() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const signedIn = (session: SignedIn) => {
    rememberSignedIn(session.keyId);
    setState({ kind: 'signed-in', session });
  };
  const signedOut = (reason?: string) => {
    rememberSignedIn(undefined);
    setState({ kind: 'signed-out', ...(reason ? { reason } : {}) });
  };
  useEffect(() => {
    whenSignedOut(signedOut);
    api<SignedIn>('/dashboard/session').then(signedIn, (error: unknown) => signedOut(error instanceof ApiError && error.status !== 401 ? error.message : undefined));
  }, []);
  if (state.kind === 'loading') return <p class="loading">Loading…</p>;
  if (state.kind === 'signed-out') return <SignInPage reason={state.reason} onSignedIn={signedIn} />;
  return (
    <SessionContext.Provider value={state.session}>
      <SignedInLayout session={state.session} onSignedOut={() => signedOut('You have signed out.')} />
    </SessionContext.Provider>
  );
}

function SignedInLayout({ session, onSignedOut }: { session: SignedIn; onSignedOut: () => void }) {
  const { path } = useLocation();
  const { error, run } = useAction();
  // Only a confirmed sign-out shows the sign-in page: on a shared computer, "signed out" must be true.
  const signOut = () =>
    run(async () => {
      await api('/dashboard/session', { method: 'DELETE' });
      onSignedOut();
    });
  const current = (page: string) => (page === '/dashboard' ? path === page : path.startsWith(page));
  return (
    <div class="layout">
      <header class="top">
        <a class="brand" href="/dashboard">
          Top-up
        </a>
        <nav aria-label="Dashboard">
          <ul>
            {PAGES.filter((p) => !p.write || session.scope === 'full').map((p) => (
              <li key={p.path}>
                <a href={p.path} aria-current={current(p.path) ? 'page' : undefined}>
                  {p.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span class="muted small" title="Account">
            {session.accountId}
          </span>
          <span class={`badge env-${session.environment}`}>{session.environment}</span>
          {session.scope === 'read' && <span class="badge">read-only key</span>}
          <button type="button" class="secondary" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main>
        <ProblemNote error={error} />
        <Router>
          <Route path="/dashboard" component={OverviewPage} />
          <Route path="/dashboard/orders" component={OrdersPage} />
          <Route path="/dashboard/orders/:id" component={OrderDetailPage} />
          <Route path="/dashboard/new" component={NewTopupPage} />
          <Route path="/dashboard/webhooks" component={WebhooksPage} />
          <Route path="/dashboard/keys" component={KeysPage} />
          <Route default component={NotFound} />
        </Router>
      </main>
    </div>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        There is no such page. <a href="/dashboard">Back to the overview</a>.
      </p>
    </section>
  );
}
