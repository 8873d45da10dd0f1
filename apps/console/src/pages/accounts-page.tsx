/** Every account with its balance; open a new one. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { ErrorNote } from '../components/error-note.tsx';
import { Loading, Money, PageHeader, Pager, StatusBadge } from '../components/ui.tsx';
import { formatDate } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { Currency } from '../lib/types.ts';
import { useUrlState } from '../lib/url-state.ts';

export function AccountsPage() {
  const trpc = useTRPC();
  const url = useUrlState(); // the page is in the address (`?page=`)
  const page = url.page();
  const setPage = (next: number) => url.set({ page: next }, { push: true });
  const [name, setName] = useState('');
  const [currency, setCurrency] = useState<Currency>('PLN');
  const currencies = useQuery(trpc.currencies.listCurrencies.queryOptions());
  const accounts = useQuery(trpc.accounts.listAccounts.queryOptions({ page, limit: 20 }));
  const create = useMutation(
    trpc.accounts.createAccount.mutationOptions({
      onSuccess: () => {
        setName('');
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, currency });
  };
  const list = accounts.data?.data ?? [];

  return (
    <>
      <PageHeader
        title="Accounts"
        subtitle="Balances in your sandbox, each in its account's currency. Open an account, then simulate transactions on it."
      />
      <section className="card" aria-labelledby="new-account">
        <h2 id="new-account">Open an account</h2>
        <form className="row" onSubmit={submit}>
          <label className="field">
            <span>Name</span>
            <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="Daily spending" />
          </label>
          <label className="field">
            <span>Currency</span>
            <select value={currency} onChange={(e) => setCurrency(e.target.value as Currency)}>
              {(currencies.data?.data ?? [{ code: 'PLN', name: 'Zloty', exponent: 2 }]).map((item) => (
                <option key={item.code} value={item.code}>
                  {item.code} · {item.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={create.isPending}>
            Open account
          </button>
        </form>
        <ErrorNote error={create.error} />
      </section>
      <section className="card" aria-labelledby="account-list">
        <h2 id="account-list">Your accounts</h2>
        <ErrorNote error={accounts.error} />
        {accounts.isPending ? (
          <Loading what="accounts" />
        ) : list.length === 0 ? (
          <p className="empty">No accounts yet.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Balance
                  </th>
                  <th scope="col" className="num">
                    Available
                  </th>
                  <th scope="col">Opened (world time)</th>
                </tr>
              </thead>
              <tbody>
                {list.map((account) => (
                  <tr key={account.id}>
                    <td data-label="Name">
                      <Link href={`/accounts/${account.id}`}>{account.name}</Link>
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={account.status} />
                    </td>
                    <td data-label="Balance" className="num" data-testid="account-balance">
                      <Money amount={account.balance} currency={account.currency} />
                    </td>
                    <td data-label="Available" className="num" data-testid="account-available">
                      <Money amount={account.availableBalance} currency={account.currency} />
                    </td>
                    <td data-label="Opened (world time)">{formatDate(account.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager meta={accounts.data?.meta} onPage={setPage} label="Accounts" />
      </section>
    </>
  );
}
