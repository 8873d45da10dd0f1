/** An account's history, newest first, filtered by day range and status, a page at a time; a row opens its details. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CATEGORY_LABELS } from '../lib/categories.ts';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { StatusFilter } from '../lib/types.ts';
import { useUrlState } from '../lib/url-state.ts';
import { ErrorNote } from './error-note.tsx';
import { Loading, Money, Pager, StatusBadge } from './ui.tsx';

const LIMIT = 20;
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
  const history = useQuery({
    ...trpc.transactions.listAccountTransactions.queryOptions({
      id: accountId,
      page,
      limit: LIMIT,
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
      </search>
      <ErrorNote error={history.error} />
      {history.isPending ? (
        <Loading what="transactions" />
      ) : list.length === 0 ? (
        <p className="empty">No transactions{from || to || status ? ' match' : ' yet'}.</p>
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
                  <td>{formatDateTime(transaction.date)}</td>
                  <td>
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
                  <td>
                    <StatusBadge status={transaction.status} />
                  </td>
                  <td className="num">
                    <Money amount={transaction.amount} signed />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager meta={history.data?.meta} onPage={setPage} label="Transactions" />
    </div>
  );
}
