/** An account's history, newest first, filtered by day range and status, a page at a time; a row opens its details. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { CATEGORY_LABELS } from '../lib/categories.ts';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { StatusFilter } from '../lib/types.ts';
import { useUrlState } from '../lib/url-state.ts';
import { ErrorNote } from './error-note.tsx';
import { Loading, Money, originalOf, Pager, StatusBadge } from './ui.tsx';

const SIZES = [10, 20, 50, 100];
const STATUSES = new Set(['pending', 'posted', 'voided', 'all']);

interface Props {
  accountId: string;
  selectedId: string | undefined;
  onSelect: (transactionId: string) => void;
}

export function TransactionsTable({ accountId, selectedId, onSelect }: Props) {
  const trpc = useTRPC();
  // Filters and page are in the address (`?from=&to=&status=&page=`); a filter change goes back to page 1.
  const url = useUrlState();
  const page = url.page();
  const from = url.get('from');
  const to = url.get('to');
  const status = STATUSES.has(url.get('status')) ? (url.get('status') as StatusFilter) : '';
  const setPage = (next: number) => url.set({ page: next }, { push: true });
  const q = url.get('q');
  const size = SIZES.includes(Number(url.get('size'))) ? Number(url.get('size')) : 20;
  const [searchText, setSearchText] = useState(q);
  const [jump, setJump] = useState('');
  const search = (event: FormEvent) => {
    event.preventDefault();
    url.set({ q: searchText.trim(), page: 1 }, { push: true });
  };
  const history = useQuery({
    ...trpc.transactions.listAccountTransactions.queryOptions({
      id: accountId,
      page,
      limit: size,
      ...(q ? { q } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(status ? { status } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const list = history.data?.data ?? [];

  return (
    <div className="stack">
      <search className="row" aria-label="Filter transactions">
        <form className="row" aria-label="Search transactions" onSubmit={search}>
          <label className="field">
            <span>Search</span>
            <input
              type="search"
              maxLength={100}
              placeholder="Description, merchant or amount"
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
            />
          </label>
          <button type="submit" className="secondary small">
            Search
          </button>
        </form>
        <label className="field">
          <span>From</span>
          <input type="date" value={from} onChange={(e) => url.set({ from: e.target.value, page: 1 })} />
        </label>
        <label className="field">
          <span>To</span>
          <input type="date" value={to} onChange={(e) => url.set({ to: e.target.value, page: 1 })} />
        </label>
        <label className="field">
          <span>Status</span>
          <select value={status} onChange={(e) => url.set({ status: e.target.value, page: 1 })}>
            <option value="">Pending and posted</option>
            <option value="pending">Pending</option>
            <option value="posted">Posted</option>
            <option value="voided">Voided</option>
            <option value="all">All</option>
          </select>
        </label>
        <label className="field">
          <span>Per page</span>
          <select value={size} onChange={(e) => url.set({ size: e.target.value === '20' ? '' : e.target.value, page: 1 })}>
            {SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      </search>
      <ErrorNote error={history.error} />
      {history.isPending ? (
        <Loading what="transactions" />
      ) : list.length === 0 ? (
        <p className="empty">No transactions{from || to || status || q ? ' match' : ' yet'}.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Transactions">
            <thead>
              <tr>
                <th scope="col">Date (world time)</th>
                <th scope="col">Description</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((transaction) => (
                <tr key={transaction.id} data-selected={transaction.id === selectedId || undefined}>
                  <td data-label="Date (world time)">{formatDateTime(transaction.date)}</td>
                  <td data-label="Description">
                    <button
                      type="button"
                      className="link"
                      aria-current={transaction.id === selectedId || undefined}
                      onClick={() => onSelect(transaction.id)}
                    >
                      {transaction.description || '(no description)'}
                    </button>
                    <br />
                    <small className="muted">
                      {[transaction.merchant, transaction.category && CATEGORY_LABELS[transaction.category]]
                        .filter(Boolean)
                        .join(' · ')}
                    </small>
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={transaction.status} />
                  </td>
                  <td data-label="Amount" className="num">
                    <Money
                      amount={transaction.amount}
                      currency={transaction.currency}
                      signed
                      original={originalOf(transaction)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager meta={history.data?.meta} onPage={setPage} label="Transactions" />
      {history.data && history.data.meta.total > size && (
        <form
          className="row"
          aria-label="Go to a page"
          onSubmit={(event) => {
            event.preventDefault();
            const last = Math.max(1, Math.ceil((history.data?.meta.total ?? 0) / size));
            const target = Math.min(last, Math.max(1, Math.trunc(Number(jump)) || 1));
            setPage(target);
            setJump('');
          }}
        >
          <label className="field">
            <span>Page (1–{Math.ceil(history.data.meta.total / size)})</span>
            <input inputMode="numeric" pattern="[0-9]*" value={jump} onChange={(e) => setJump(e.target.value)} />
          </label>
          <button type="submit" className="secondary small">
            Go
          </button>
        </form>
      )}
    </div>
  );
}
