/**
 * One transaction in full, read by id (`transactions.getTransaction`), never from a list row: after
 * any action the query is refetched (or set from the action's answer), so the panel shows the
 * transaction as it is now — voided ones too, which leave the default list — and the next action
 * sends the current `ifVersion`. Every field of the API's Transaction, `raw` as sent, and what can
 * be done to it.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { CATEGORY_LABELS } from '../lib/categories.ts';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { CopyButton } from './copy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { TransactionActions } from './transaction-actions.tsx';
import { Loading, Money, StatusBadge } from './ui.tsx';

export function TransactionPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.transactions.getTransaction.queryOptions({ id }));
  const transaction = query.data?.data;
  return (
    <section className="card sheet" aria-labelledby="transaction-title">
      <header>
        <h2 id="transaction-title">Transaction</h2>
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
              <Money amount={transaction.amount} signed />
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
                  <Link href={`/accounts/${transaction.accountId}?tx=${transaction.reversalOf}`}>{transaction.reversalOf}</Link>
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
          <details>
            <summary>raw</summary>
            <pre className="json">{JSON.stringify(transaction.raw, null, 2)}</pre>
          </details>
        </>
      )}
    </section>
  );
}
