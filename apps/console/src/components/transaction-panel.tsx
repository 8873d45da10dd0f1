/** One transaction in full: every field of the API's Transaction, `raw` as sent, and what can be done to it. */
import { CATEGORY_LABELS } from '../lib/categories.ts';
import { formatDateTime } from '../lib/format.ts';
import type { Transaction } from '../lib/types.ts';
import { TransactionActions } from './transaction-actions.tsx';
import { Money, StatusBadge } from './ui.tsx';

export function TransactionPanel({ transaction, onClose }: { transaction: Transaction; onClose: () => void }) {
  return (
    <section className="card" aria-labelledby="transaction-title">
      <header>
        <h2 id="transaction-title">Transaction</h2>
        <button type="button" className="secondary small" onClick={onClose}>
          Close
        </button>
      </header>
      <dl className="facts">
        <dt>Amount</dt>
        <dd data-testid="panel-amount">
          <Money amount={transaction.amount} signed />
        </dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={transaction.status} /> <span className="muted">version {transaction.version}</span>
        </dd>
        <dt>Date</dt>
        <dd>{formatDateTime(transaction.date)}</dd>
        <dt>Posted</dt>
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
            <dd className="mono">{transaction.reversalOf}</dd>
          </>
        )}
        <dt>External id</dt>
        <dd className="mono">{transaction.externalTxnId}</dd>
        <dt>Id</dt>
        <dd className="mono">{transaction.id}</dd>
      </dl>
      <TransactionActions key={transaction.version} transaction={transaction} />
      <details>
        <summary>raw</summary>
        <pre className="json">{JSON.stringify(transaction.raw, null, 2)}</pre>
      </details>
    </section>
  );
}
