/** The signed-in frame: the brand, the navigation (a sidebar, a scrolling bar on a phone), who is signed in. */
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useAuth } from '../lib/auth.tsx';
import { CopyButton } from './copy-button.tsx';
import { OfflineBanner } from './offline-banner.tsx';
import { PageBoundary } from './page-boundary.tsx';
import { WorldClock } from './world-clock.tsx';

const NAV = [
  { href: '/', label: 'Accounts' },
  { href: '/payments', label: 'Payments' },
  { href: '/simulate', label: 'Simulate' },
  { href: '/time', label: 'Time & scenarios' },
  { href: '/events', label: 'Event log' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/api-keys', label: 'API keys' },
  { href: '/gocardless/requisitions', label: 'GoCardless' },
  { href: '/enablebanking', label: 'Enable Banking' },
  { href: '/plaid/items', label: 'Plaid items' },
  { href: '/worlds', label: 'Worlds' },
];

function isCurrent(location: string, href: string): boolean {
  if (href === '/') return location === '/' || location.startsWith('/accounts');
  return location === href || location.startsWith(`${href}/`);
}

export function Layout({ children }: { children: ReactNode }) {
  const { user, signOut } = useAuth();
  const [location] = useLocation();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar">
        <Link href="/" className="brand">
          <img src="/console/favicon.svg" alt="" />
          Sandbank
        </Link>
        <nav aria-label="Main">
          <ul className="nav">
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={isCurrent(location, item.href) ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span>{user?.email}</span>
          {user && <CopyButton text={user.id} label="Copy user id" />}
          <button type="button" className="secondary small" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </aside>
      <main className="main" id="main" tabIndex={-1}>
        <OfflineBanner />
        <WorldClock />
        <PageBoundary>{children}</PageBoundary>
      </main>
    </div>
  );
}
