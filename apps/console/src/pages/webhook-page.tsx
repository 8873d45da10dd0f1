/**
 * One webhook: its state (re-enable a disabled one and see why it was disabled), a test event, the
 * signing secret's rotation, the webhook lab's faults, and its deliveries refreshed every two
 * seconds with each attempt's request and response; redeliver.
 */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { DeliveriesTable } from '../components/deliveries-table.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { ListSection } from '../components/list-section.tsx';
import { Loading, PageHeader, StatusBadge } from '../components/ui.tsx';
import { WebhookFaultsForm } from '../components/webhook-faults-form.tsx';
import { WebhookSecretCard } from '../components/webhook-secret-card.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { Webhook } from '../lib/types.ts';
import { usePageParam } from '../lib/url-state.ts';
import { describeFaults } from '../lib/webhook-faults.ts';

export function WebhookPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const [page, setPage] = usePageParam();
  // Polled like its deliveries: the worker disables a webhook whose receiver answers 410.
  const webhook = useQuery({ ...trpc.webhooks.getWebhook.queryOptions({ id }), refetchInterval: 2_000 });
  const deliveries = useQuery({
    ...trpc.webhooks.listDeliveries.queryOptions({ id, page, limit: 20 }),
    refetchInterval: 2_000,
    placeholderData: keepPreviousData,
  });
  // A mutation refreshes the webhooks area's queries by itself (lib/query-client.ts).
  const redeliver = useMutation(trpc.webhooks.redeliver.mutationOptions());
  const hook = webhook.data?.data;
  const list = deliveries.data?.data ?? [];

  return (
    <>
      <p>
        <Link href="/webhooks">← Webhooks</Link>
      </p>
      <PageHeader title="Webhook" subtitle={<code>{hook?.url ?? id}</code>}>
        {hook && (
          <span className="row">
            <StatusBadge status={hook.status} />
            {hook.faults && <StatusBadge status="faults on" />}
          </span>
        )}
      </PageHeader>
      <ErrorNote error={webhook.error} />
      {webhook.isPending ? (
        <Loading what="the webhook" />
      ) : (
        hook && (
          <>
            <div className="grid-2">
              <WebhookState webhook={hook} />
              <WebhookSecretCard webhook={hook} />
            </div>
            <section className="card" aria-labelledby="webhook-faults">
              <header>
                <h2 id="webhook-faults">Faults (the webhook lab)</h2>
                {hook.faults ? <StatusBadge status="faults on" /> : <span className="muted">off</span>}
              </header>
              {hook.faults && (
                <ul className="fault-list" aria-label="Faults on">
                  {describeFaults(hook.faults).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              )}
              <WebhookFaultsForm webhook={hook} />
            </section>
          </>
        )
      )}
      <ListSection
        id="delivery-list"
        title="Deliveries"
        aside={
          <span className="muted" aria-live="polite">
            {deliveries.isFetching ? 'Refreshing…' : 'Live'}
          </span>
        }
        query={deliveries}
        actionError={redeliver.error}
        what="deliveries"
        empty="No deliveries yet: send a test event, or simulate a transaction on one of your accounts."
        onPage={setPage}
        pagerLabel="Deliveries"
      >
        <DeliveriesTable
          deliveries={list}
          url={hook?.url ?? ''}
          busy={redeliver.isPending}
          redeliver={(deliveryId) => redeliver.mutate({ id, deliveryId })}
        />
      </ListSection>
    </>
  );
}

/** Active: send a test event. Disabled: why, and re-enable. */
function WebhookState({ webhook }: { webhook: Webhook }) {
  const trpc = useTRPC();
  const test = useMutation(trpc.webhooks.testWebhook.mutationOptions());
  const enable = useMutation(trpc.webhooks.patchWebhook.mutationOptions());
  const sent = test.data?.data;
  if (webhook.status === 'disabled') {
    return (
      <section className="card disabled-webhook" aria-labelledby="webhook-state">
        <h2 id="webhook-state">Disabled</h2>
        <p data-testid="disabled-reason">
          <StatusBadge status="disabled" /> {webhook.disabledReason ?? 'Disabled by you.'} Nothing is sent while it is disabled.
        </p>
        <ErrorNote error={enable.error} />
        <div className="row">
          <button type="button" disabled={enable.isPending} onClick={() => enable.mutate({ id: webhook.id, status: 'active' })}>
            Re-enable
          </button>
        </div>
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="webhook-state">
      <h2 id="webhook-state">Test event</h2>
      <p className="muted">
        Sends a signed <code>webhook.test</code> event (data <code>{'{}'}</code>) to this webhook now, with its faults if any. Its
        delivery shows below.
      </p>
      <ErrorNote error={test.error} />
      {sent && (
        <p className="note success" role="status">
          Test event sent {formatDateTime(sent.createdAt)} (world time): <code>{sent.eventId}</code>
        </p>
      )}
      <div className="row">
        <button type="button" disabled={test.isPending} onClick={() => test.mutate({ id: webhook.id })}>
          Send test event
        </button>
      </div>
    </section>
  );
}
