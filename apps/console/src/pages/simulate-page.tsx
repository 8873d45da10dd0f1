/** The simulate form for any open account. */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ErrorNote } from '../components/error-note.tsx';
import { SimulateForm } from '../components/simulate-form.tsx';
import { Loading, Money, PageHeader } from '../components/ui.tsx';
import { useTRPC } from '../lib/trpc.ts';
import { useUrlState } from '../lib/url-state.ts';

export function SimulatePage() {
  const trpc = useTRPC();
  const accounts = useQuery(trpc.accounts.listAccounts.queryOptions({ page: 1, limit: 200 }));
  const open = (accounts.data?.data ?? []).filter((account) => account.status === 'open');
  const url = useUrlState(); // the chosen account is in the address (`?account=`)
  const chosen = url.get('account');
  const accountId = chosen || open[0]?.id || '';
  const account = open.find((item) => item.id === accountId);

  return (
    <>
      <PageHeader title="Simulate" subtitle="Book a transaction on one of your accounts, as a bank would." />
      <ErrorNote error={accounts.error} />
      {accounts.isPending ? (
        <Loading what="accounts" />
      ) : open.length === 0 ? (
        <p className="empty">
          No open account yet: <Link href="/">open one first</Link>.
        </p>
      ) : (
        <section className="card" aria-labelledby="simulate-title">
          <header>
            <h2 id="simulate-title">New transaction</h2>
            {account && (
              <span className="muted">
                Balance <Money amount={account.balance} currency={account.currency} />
              </span>
            )}
          </header>
          <label className="field">
            <span>Account</span>
            <select value={accountId} onChange={(e) => url.set({ account: e.target.value })}>
              {open.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.currency === 'PLN' ? item.name : `${item.name} (${item.currency})`}
                </option>
              ))}
            </select>
          </label>
          {account && <SimulateForm key={accountId} accountId={accountId} currency={account.currency} />}
        </section>
      )}
    </>
  );
}
