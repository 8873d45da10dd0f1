/**
 * A transaction's story from the event log (`events.listEvents` with `transactionId`): created,
 * patched, posted, voided or expired, and each reversal booked against it — in log order, each at
 * its world time. The reversals found here are also the "Reversed by" links of the panel, so both
 * directions of a reversal come from the server's own records.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { EventItem } from '../lib/types.ts';
import { CopyButton } from './copy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { Loading, Money } from './ui.tsx';

/** What a link to another transaction leaves in the history entry: the panel it opens takes the focus. */
export const focusState = (transactionId: string) => ({ focusTransaction: transactionId });

/** Enough for any real timeline (a transaction changes a handful of times); more says so. */
const TIMELINE_LIMIT = 200;

/** What an event did to the transaction `id`, in words. */
function describe(event: EventItem, id: string): string {
  const transaction = event.data.transaction;
  if (!transaction) return event.type;
  if (transaction.id !== id) return 'Reversed';
  switch (event.type) {
    case 'transaction.created':
      if (transaction.reversalOf) return 'Created as a reversal';
      return transaction.status === 'pending' ? 'Created (pending)' : 'Created (posted)';
    case 'transaction.updated': {
      const changes = event.data.changes ?? [];
      if (changes.includes('status')) return changes.includes('amount') ? 'Posted (amount changed)' : 'Posted';
      return `Updated: ${changes.join(', ') || 'no field'}`;
    }
    case 'transaction.removed':
      return event.data.reason === 'expired' ? 'Expired' : 'Voided';
    default:
      return event.type;
  }
}

/** The transaction's events, and the reversals among them (for the panel's links). */
export function useTimeline(id: string) {
  const trpc = useTRPC();
  const query = useQuery(trpc.events.listEvents.queryOptions({ transactionId: id, limit: TIMELINE_LIMIT }));
  const events = query.data?.data ?? [];
  const reversals = events.flatMap((event) =>
    event.type === 'transaction.created' && event.data.transaction?.reversalOf === id ? [event.data.transaction] : [],
  );
  return { query, events, reversals, more: query.data?.meta.hasMore ?? false };
}

export function TransactionTimeline({
  id,
  timeline,
  hrefOf,
}: {
  id: string;
  timeline: ReturnType<typeof useTimeline>;
  hrefOf: (transactionId: string) => string;
}) {
  const { query, events, more } = timeline;
  return (
    <section aria-labelledby="timeline-title" data-testid="timeline">
      <h3 id="timeline-title">Event timeline</h3>
      <ErrorNote error={query.error} />
      {!query.data ? (
        !query.error && <Loading what="the events" />
      ) : events.length === 0 ? (
        <p className="muted">No events yet (an event is listed once every write before it has committed).</p>
      ) : (
        <ol className="timeline">
          {events.map((event) => {
            const other = event.data.transaction && event.data.transaction.id !== id ? event.data.transaction : undefined;
            return (
              <li key={event.id} data-testid="timeline-event" data-type={event.type}>
                <strong>{describe(event, id)}</strong>
                {other && (
                  <>
                    {' '}
                    <Money amount={other.amount} currency={other.currency} signed /> by{' '}
                    <Link href={hrefOf(other.id)} state={focusState(other.id)}>
                      reversal {other.id.slice(-8)}
                    </Link>
                  </>
                )}
                <span className="muted">
                  {' '}
                  · {formatDateTime(event.createdAt)} (world time)
                  {event.data.transaction && !other && <> · version {event.data.transaction.version}</>}
                </span>
                <span className="timeline-id mono">
                  {event.type} {event.id} <CopyButton text={event.id} label="Copy event id" />
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {more && <p className="muted">Only the first {TIMELINE_LIMIT} events are shown; the event log has them all.</p>}
    </section>
  );
}
