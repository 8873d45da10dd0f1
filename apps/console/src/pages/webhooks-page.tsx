/** Register a webhook (URL, event kinds, client id; the signing secret is shown once) and list yours. */

import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { ConfirmButton } from '../components/confirm-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { ListSection, TableHead } from '../components/list-section.tsx';
import { ShownOnce } from '../components/shown-once.tsx';
import { BreakableAddress, PageHeader, StatusBadge } from '../components/ui.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { usePageParam } from '../lib/url-state.ts';
import { randomSecret } from '../lib/webhook-secret.ts';

const EVENT_KINDS = ['transaction.created', 'transaction.updated', 'transaction.removed'] as const;
const COLUMNS = ['URL', 'Client', 'Status', 'Created (world time)'];

export function WebhooksPage() {
  const trpc = useTRPC();
  const [page, setPage] = usePageParam();
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState(randomSecret);
  const [clientId, setClientId] = useState('my-app');
  const [events, setEvents] = useState<string[]>([...EVENT_KINDS]);
  // The secret the last registration was made with: shown once, until the page is left.
  const [registered, setRegistered] = useState<{ url: string; id: string; secret: string } | null>(null);
  const webhooks = useQuery(trpc.webhooks.listWebhooks.queryOptions({ page, limit: 20 }));
  const create = useMutation(
    trpc.webhooks.createWebhook.mutationOptions({
      onSuccess: (result, input) => {
        setRegistered({ url: result.data.url, id: result.data.id, secret: input.secret });
        setUrl('');
        setSecret(randomSecret());
      },
    }),
  );
  const remove = useMutation(trpc.webhooks.deleteWebhook.mutationOptions());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRegistered(null);
    create.mutate({ url, secret, clientId, events: events as (typeof EVENT_KINDS)[number][] });
  };
  const toggle = (kind: string, on: boolean) => setEvents((list) => (on ? [...list, kind] : list.filter((k) => k !== kind)));
  const list = webhooks.data?.data ?? [];

  return (
    <>
      <PageHeader
        title="Webhooks"
        subtitle="Signed POSTs (Standard Webhooks) to your receiver for every event on your accounts."
      />
      <section className="card" aria-labelledby="new-webhook">
        <h2 id="new-webhook">Register a webhook</h2>
        <form className="stack" onSubmit={submit}>
          <label className="field">
            <span>URL</span>
            <input
              type="url"
              required
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://example.com/hooks"
            />
          </label>
          <label className="field">
            <span>Client id</span>
            <input required maxLength={100} value={clientId} onChange={(e) => setClientId(e.target.value)} />
          </label>
          <fieldset>
            <legend>Events</legend>
            <div className="choices">
              {EVENT_KINDS.map((kind) => (
                <label key={kind}>
                  <input type="checkbox" checked={events.includes(kind)} onChange={(e) => toggle(kind, e.target.checked)} />
                  <code>{kind}</code>
                </label>
              ))}
            </div>
          </fieldset>
          <details>
            <summary>Signing secret: made for you, or use your own</summary>
            <div className="row">
              <label className="field grow">
                <span>Secret (16–256 printable characters, no spaces)</span>
                <input
                  required
                  minLength={16}
                  maxLength={256}
                  pattern="[!-~]{16,256}"
                  value={secret}
                  onChange={(e) => setSecret(e.target.value)}
                  className="mono"
                />
              </label>
              <button type="button" className="secondary" onClick={() => setSecret(randomSecret())}>
                New secret
              </button>
            </div>
          </details>
          <ErrorNote error={create.error} />
          <button type="submit" disabled={create.isPending}>
            Register webhook
          </button>
        </form>
        {registered && (
          <ShownOnce
            title="Copy the signing secret now: it is shown only once. Sandbank never shows it again."
            value={registered.secret}
            copyLabel="Copy secret"
            testId="new-secret"
          >
            <span>
              Your receiver verifies each delivery to <code>{registered.url}</code> with it (Standard Webhooks).{' '}
              <Link href={`/webhooks/${registered.id}`}>Open the webhook</Link> to send a test event.
            </span>
          </ShownOnce>
        )}
      </section>
      <ListSection
        id="webhook-list"
        title="Your webhooks"
        query={webhooks}
        actionError={remove.error}
        what="webhooks"
        empty="No webhooks yet."
        onPage={setPage}
        pagerLabel="Webhooks"
      >
        <table>
          <TableHead columns={COLUMNS} actions />
          <tbody>
            {list.map((hook) => (
              <tr key={hook.id}>
                <td data-label="URL" className="mono">
                  <Link href={`/webhooks/${hook.id}`}>
                    <BreakableAddress text={hook.url} />
                  </Link>
                </td>
                <td data-label="Client">{hook.clientId}</td>
                <td data-label="Status">
                  <StatusBadge status={hook.status} />
                  {hook.faults && (
                    <>
                      {' '}
                      <StatusBadge status="faults on" />
                    </>
                  )}
                  {hook.disabledReason && <small className="muted"> {hook.disabledReason}</small>}
                </td>
                <td data-label="Created (world time)">{formatDateTime(hook.createdAt)}</td>
                <td className="actions">
                  <Link href={`/webhooks/${hook.id}`}>Deliveries</Link>
                  <ConfirmButton
                    label="Delete"
                    question={<>Delete the webhook to {hook.url}? Its deliveries stop; this cannot be undone.</>}
                    onConfirm={() => remove.mutate({ id: hook.id })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListSection>
    </>
  );
}
