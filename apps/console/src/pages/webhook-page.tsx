/** One webhook's deliveries, refreshed every two seconds: status, response code, duration, attempts; redeliver. */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ErrorNote } from '../components/error-note.tsx';
import { Loading, PageHeader, Pager, StatusBadge } from '../components/ui.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { useUrlState } from '../lib/url-state.ts';

export function WebhookPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const url = useUrlState(); // the page is in the address (`?page=`)
  const page = url.page();
  const setPage = (next: number) => url.set({ page: next }, { push: true });
  const deliveries = useQuery({
    ...trpc.webhooks.listDeliveries.queryOptions({ id, page, limit: 20 }),
    refetchInterval: 2_000,
    placeholderData: keepPreviousData,
  });
  const redeliver = useMutation(trpc.webhooks.redeliver.mutationOptions());
  // No single-webhook procedure: its URL comes from the list (one page of up to 200 webhooks).
  const hooks = useQuery(trpc.webhooks.listWebhooks.queryOptions({ page: 1, limit: 200 }));
  const hook = hooks.data?.data.find((item) => item.id === id);
  const list = deliveries.data?.data ?? [];

  return (
    <>
      <p>
        <Link href="/webhooks">← Webhooks</Link>
      </p>
      <PageHeader title="Deliveries" subtitle={<code>{hook?.url ?? id}</code>}>
        {hook && <StatusBadge status={hook.status} />}
      </PageHeader>
      <section className="card" aria-labelledby="delivery-list">
        <header>
          <h2 id="delivery-list">Newest first</h2>
          <span className="muted" aria-live="polite">
            {deliveries.isFetching ? 'Refreshing…' : 'Live'}
          </span>
        </header>
        <ErrorNote error={deliveries.error ?? redeliver.error} />
        {deliveries.isPending ? (
          <Loading what="deliveries" />
        ) : list.length === 0 ? (
          <p className="empty">No deliveries yet: simulate a transaction on one of your accounts.</p>
        ) : (
          <div className="table-wrap">
            <table aria-label="Deliveries">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Response
                  </th>
                  <th scope="col" className="num">
                    Duration
                  </th>
                  <th scope="col">Attempts</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((delivery) => {
                  const last = delivery.attempts.at(-1);
                  return (
                    <tr key={delivery.id}>
                      <td>
                        <code>{delivery.eventType}</code>
                        <br />
                        <small className="muted">{formatDateTime(delivery.createdAt)} (real time)</small>
                      </td>
                      <td>
                        <StatusBadge status={delivery.status} />
                        {delivery.nextAttemptAt && (
                          <small className="muted"> next {formatDateTime(delivery.nextAttemptAt)} (real time)</small>
                        )}
                      </td>
                      <td className="num" data-testid="status-code">
                        {delivery.lastStatusCode ?? '—'}
                      </td>
                      <td className="num">{last ? `${last.durationMs} ms` : '—'}</td>
                      <td>
                        <details>
                          <summary>{delivery.attemptCount}</summary>
                          <ol className="attempts">
                            {delivery.attempts.map((attempt) => (
                              <li key={attempt.attempt}>
                                {formatDateTime(attempt.at)} (real time): {attempt.statusCode ?? 'no answer'},{' '}
                                {attempt.durationMs} ms
                                {attempt.error && <span className="muted"> ({attempt.error})</span>}
                              </li>
                            ))}
                          </ol>
                        </details>
                      </td>
                      <td className="actions">
                        <button
                          type="button"
                          className="secondary small"
                          disabled={redeliver.isPending}
                          onClick={() => redeliver.mutate({ id, deliveryId: delivery.id })}
                        >
                          Redeliver
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <Pager meta={deliveries.data?.meta} onPage={setPage} label="Deliveries" />
      </section>
    </>
  );
}
