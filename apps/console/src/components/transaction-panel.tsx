/**
 * One transaction in full, read by id (`transactions.getTransaction`), never from a list row: after
 * any action the query is refetched (or set from the action's answer), so the panel shows the
 * transaction as it is now — voided ones too, which leave the default list — and the next action
 * sends the current `ifVersion`. Every field of the API's Transaction and what can be done to it;
 * its full JSON as the API answers it (`raw` included), its event timeline, and links between a
 * reversal and its original both ways. A link to another transaction only changes `?tx=` in the
 * address (the filters and page stay), so the address is the one place the selection lives; the
 * panel it opens takes the focus the link had (the link left with the old panel).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { CATEGORY_LABELS } from '../lib/categories.ts';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { CopyButton } from './copy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { TransactionActions } from './transaction-actions.tsx';
import { focusState, TransactionTimeline, useTimeline } from './transaction-timeline.tsx';
import { Loading, Money, originalOf, StatusBadge } from './ui.tsx';

/** The address of this view with another transaction selected (`?tx=`), the rest of the query kept. */
function useTransactionHref(): (id: string) => string {
  const [location] = useLocation();
  const search = useSearch();
  return (id) => {
    const params = new URLSearchParams(search);
    params.set('tx', id);
    return `${location}?${params}`;
  };
}

export function TransactionPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.transactions.getTransaction.queryOptions({ id }));
  const transaction = query.data?.data;
  const timeline = useTimeline(id);
  const hrefOf = useTransactionHref();
  const json = transaction ? JSON.stringify(transaction, null, 2) : '';
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const state = window.history.state as { focusTransaction?: string } | null;
    if (state?.focusTransaction === id) heading.current?.focus();
  }, [id]);
  return (
    <section className="card sheet" aria-labelledby="transaction-title">
      <header>
        <h2 id="transaction-title" ref={heading} tabIndex={-1}>
          Transaction
        </h2>
        <button type="button" className="secondary small" onClick={onClose}>
          Close
        </button>
      </header>
      <ErrorNote error={query.error} />
      {!transaction ? (
        !query.error && <Loading what="the transaction" />
      ) : (
        <>
          <dl className="facts">
            <dt>Amount</dt>
            <dd data-testid="panel-amount">
              <Money amount={transaction.amount} currency={transaction.currency} signed original={originalOf(transaction)} />
            </dd>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={transaction.status} />{' '}
              <span className="muted" data-testid="panel-version">
                version {transaction.version}
              </span>
            </dd>
            <dt>Date (world time)</dt>
            <dd>{formatDateTime(transaction.date)}</dd>
            <dt>Posted (world time)</dt>
            <dd>{formatDateTime(transaction.postedAt)}</dd>
            <dt>Description</dt>
            <dd>{transaction.description || '—'}</dd>
            <dt>Merchant</dt>
            <dd>{transaction.merchant ?? '—'}</dd>
            <dt>Category</dt>
            <dd>{transaction.category ? CATEGORY_LABELS[transaction.category] : '—'}</dd>
            {transaction.reversalOf && (
              <>
                <dt>Reverses</dt>
                <dd className="mono">
                  <Link
                    href={hrefOf(transaction.reversalOf)}
                    state={focusState(transaction.reversalOf)}
                    data-testid="reverses-link"
                  >
                    {transaction.reversalOf}
                  </Link>{' '}
                  <CopyButton text={transaction.reversalOf} label="Copy original id" />
                </dd>
              </>
            )}
            {timeline.reversals.length > 0 && (
              <>
                <dt>Reversed by</dt>
                <dd>
                  <ul className="plain-list">
                    {timeline.reversals.map((reversal) => (
                      <li key={reversal.id} className="mono">
                        <Money amount={reversal.amount} currency={reversal.currency} signed />{' '}
                        <Link href={hrefOf(reversal.id)} state={focusState(reversal.id)} data-testid="reversal-link">
                          {reversal.id}
                        </Link>{' '}
                        <CopyButton text={reversal.id} label="Copy reversal id" />
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
            <dt>External id</dt>
            <dd className="mono">
              {transaction.externalTxnId} <CopyButton text={transaction.externalTxnId} label="Copy external id" />
            </dd>
            <dt>Id</dt>
            <dd className="mono">
              {transaction.id} <CopyButton text={transaction.id} label="Copy transaction id" />
            </dd>
          </dl>
          <TransactionActions key={transaction.version} transaction={transaction} />
          <TransactionTimeline id={id} timeline={timeline} hrefOf={hrefOf} />
          <details className="transaction-json">
            <summary>JSON, as the API returns it</summary>
            <p>
              <CopyButton text={json} label="Copy JSON" />
            </p>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls, so a keyboard must be able to reach it */}
            <pre className="json" data-testid="transaction-json" tabIndex={0}>
              {json}
            </pre>
          </details>
        </>
      )}
    </section>
  );
}
