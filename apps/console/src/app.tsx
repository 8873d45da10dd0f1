/** Routes under /console: sign-in pages for visitors, the console for a signed-in user. */
import type { QueryClient } from '@tanstack/react-query';
import { Redirect, Route, Router, Switch, useLocation, useSearch } from 'wouter';
import { Layout } from './components/layout.tsx';
import { AppBoundary } from './components/page-boundary.tsx';
import { AuthProvider, useAuth } from './lib/auth.tsx';
import { AccountPage } from './pages/account-page.tsx';
import { AccountsPage } from './pages/accounts-page.tsx';
import { ApiKeysPage } from './pages/api-keys-page.tsx';
import { AuthPage } from './pages/auth-page.tsx';
import { type ConsentFace, ConsentPage } from './pages/consent-page.tsx';
import { EnableBankingPage } from './pages/enablebanking-page.tsx';
import { EventsPage } from './pages/events-page.tsx';
import { PaymentsPage } from './pages/payments-page.tsx';
import { PlaidItemsPage } from './pages/plaid-items-page.tsx';
import { RequisitionsPage } from './pages/requisitions-page.tsx';
import { SimulatePage } from './pages/simulate-page.tsx';
import { SnapshotPage } from './pages/snapshot-page.tsx';
import { TimePage } from './pages/time-page.tsx';
import { WebhookPage } from './pages/webhook-page.tsx';
import { WebhooksPage } from './pages/webhooks-page.tsx';
import { WorldsPage } from './pages/worlds-page.tsx';

/** Where sign-in returns to: `next` when it is a path of the console, else the start page. */
function returnPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** The consent page a face's link leads to, or nothing: it stands outside the console, signed in or not. */
function consentOf(location: string): { face: ConsentFace; id: string } | undefined {
  const match = /^\/(gocardless\/requisitions|enablebanking\/authorizations|enablebanking\/payments)\/([^/]+)$/.exec(location);
  if (!match?.[1] || !match[2]) return undefined;
  const faces: Record<string, ConsentFace> = {
    'gocardless/requisitions': 'gocardless',
    'enablebanking/authorizations': 'enablebanking',
    'enablebanking/payments': 'enablebanking-payment',
  };
  const face = faces[match[1]];
  return face ? { face, id: match[2] } : undefined;
}

function Routes() {
  const { status, user, restore } = useAuth();
  const [location] = useLocation();
  const search = useSearch();
  const consent = consentOf(location);
  if (status === 'restoring') {
    return (
      <main className="auth" aria-busy="true">
        <p className="muted" role="status">
          Restoring your session…
        </p>
      </main>
    );
  }
  if (status === 'unreachable') {
    return (
      <main className="auth">
        <section className="card" aria-labelledby="unreachable-title">
          <h1 id="unreachable-title">Sandbank cannot be reached</h1>
          <p>
            <span className="badge danger">NETWORK</span> Your session could not be checked: the network or the server is down.
          </p>
          <button type="button" onClick={restore}>
            Try again
          </button>
        </section>
      </main>
    );
  }
  // A bank's page, not the console's: no console frame, sign-in inside it.
  if (consent) return <ConsentPage key={`${consent.face}/${consent.id}`} face={consent.face} id={consent.id} />;
  if (!user) {
    const asked = search ? `${location}?${search}` : location;
    return (
      <Switch>
        <Route path="/register">
          <AuthPage mode="register" />
        </Route>
        <Route path="/login">
          <AuthPage mode="login" />
        </Route>
        <Route>
          {/* A page asked for before signing in is where sign-in returns to. */}
          <Redirect to={asked === '/' ? '/login' : `/login?next=${encodeURIComponent(asked)}`} replace />
        </Route>
      </Switch>
    );
  }
  return (
    <Layout>
      <Switch>
        <Route path="/">
          <AccountsPage />
        </Route>
        <Route path="/accounts/:id">{(params) => <AccountPage key={params.id} id={params.id} />}</Route>
        <Route path="/payments">
          <PaymentsPage />
        </Route>
        <Route path="/simulate">
          <SimulatePage />
        </Route>
        <Route path="/time">
          <TimePage />
        </Route>
        <Route path="/events">
          <EventsPage />
        </Route>
        <Route path="/webhooks">
          <WebhooksPage />
        </Route>
        <Route path="/webhooks/:id">{(params) => <WebhookPage key={params.id} id={params.id} />}</Route>
        <Route path="/api-keys">
          <ApiKeysPage />
        </Route>
        <Route path="/gocardless/requisitions">
          <RequisitionsPage />
        </Route>
        <Route path="/worlds">
          <WorldsPage />
        </Route>
        <Route path="/worlds/snapshots/:id">{(params) => <SnapshotPage key={params.id} id={params.id} />}</Route>
        <Route path="/enablebanking">
          <EnableBankingPage />
        </Route>
        <Route path="/plaid/items">
          <PlaidItemsPage />
        </Route>
        <Route path="/login">
          <Redirect to={returnPath(search)} replace />
        </Route>
        <Route path="/register">
          <Redirect to="/" replace />
        </Route>
        <Route>
          <p className="empty">This page does not exist.</p>
        </Route>
      </Switch>
    </Layout>
  );
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <AppBoundary>
      <AuthProvider queryClient={queryClient}>
        <Router base="/console">
          <Routes />
        </Router>
      </AuthProvider>
    </AppBoundary>
  );
}
