/**
 * The event log: every event of the user's world, newest first, growing by itself as events are
 * committed. Each line says what happened to which transaction and the balances after it; the
 * whole body (byte for byte what a webhook receives) opens below.
 */
import { ErrorNote } from '../components/error-note.tsx';
import { Loading, Money, originalOf, PageHeader, StatusBadge } from '../components/ui.tsx';
import { formatDateTime } from '../lib/format.ts';
import type { EventItem, EventType } from '../lib/types.ts';
import { useUrlState } from '../lib/url-state.ts';

import { useEventTail } from '../lib/use-event-tail.ts';

const TYPES: EventType[] = [
  'transaction.created',
  'transaction.updated',
  'transaction.removed',
  'payment.created',
  'payment.updated',
  'scenario.applied',
];

function Summary({ event }: { event: EventItem }) {
  const { transaction, balances, changes, reason, scenario } = event.data;
  if (!transaction) {
    return (
      <span>
        Scenario applied: {scenario?.accounts.length ?? 0} accounts, {scenario?.transactions ?? 0} transactions,{' '}
        {scenario?.schedules ?? 0} schedules
      </span>
    );
  }
  return (
    <span>
      <Money amount={transaction.amount} currency={transaction.currency} signed original={originalOf(transaction)} />{' '}
      {transaction.description || '(no description)'} <StatusBadge status={transaction.status} />
      {changes && changes.length > 0 && <span className="muted"> changed {changes.join(', ')}</span>}
      {reason && <span className="muted"> ({reason})</span>}
      {balances && (
        <span className="muted">
          {' '}
          → balance <Money amount={balances.balance} currency={transaction.currency} />, available{' '}
          <Money amount={balances.availableBalance} currency={transaction.currency} />
        </span>
      )}
    </span>
  );
}

export function EventsPage() {
  const url = useUrlState(); // the kind filter is in the address (`?type=`)
  const type = url.get('type') as EventType | '';
  const tail = useEventTail(type || undefined);
  return (
    <>
      <PageHeader
        title="Event log"
        subtitle="Everything that happens in your sandbox, as your webhooks receive it. It updates by itself. Newest first in the log's own order (by the database transaction that wrote them, as GET /v1/events and its cursor see them), not by timestamp: a back-dated transaction's event is listed when it was made, not at its date. Times are world time."
      />
      <section className="card" aria-labelledby="event-list">
        <header>
          <h2 id="event-list">Newest first</h2>
          <label className="field">
            <span>Kind</span>
            <select value={type} onChange={(e) => url.set({ type: e.target.value })}>
              <option value="">All kinds</option>
              {TYPES.map((kind) => (
                <option key={kind} value={kind}>
                  {kind}
                </option>
              ))}
            </select>
          </label>
        </header>
        <ErrorNote error={tail.error} />
        {tail.loading ? (
          <Loading what="events" />
        ) : tail.events.length === 0 ? (
          <p className="empty">No events yet: simulate a transaction.</p>
        ) : (
          <ol className="events" aria-label="Events" aria-live="polite">
            {tail.events.map((event) => (
              <li key={event.id}>
                <div className="event-line">
                  <code className="badge">{event.type}</code>
                  <time dateTime={event.createdAt}>{formatDateTime(event.createdAt)}</time>
                  <Summary event={event} />
                </div>
                <details>
                  <summary>Body</summary>
                  <pre className="json">{JSON.stringify(event, null, 2)}</pre>
                </details>
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
