/** Register a webhook (URL, secret, event kinds, client id) and list yours. */

import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { ConfirmButton } from '../components/confirm-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { Loading, PageHeader, Pager, StatusBadge } from '../components/ui.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { useUrlState } from '../lib/url-state.ts';

const EVENT_KINDS = ['transaction.created', 'transaction.updated', 'transaction.removed'] as const;

/** 24 random bytes as hex: a secret the receiver can paste into its own config. */
function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export function WebhooksPage() {
  const trpc = useTRPC();
  const view = useUrlState(); // the page is in the address (`?page=`)
  const page = view.page();
  const setPage = (next: number) => view.set({ page: next }, { push: true });
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState(randomSecret);
  const [clientId, setClientId] = useState('my-app');
  const [events, setEvents] = useState<string[]>([...EVENT_KINDS]);
  const webhooks = useQuery(trpc.webhooks.listWebhooks.queryOptions({ page, limit: 20 }));
  const create = useMutation(
    trpc.webhooks.createWebhook.mutationOptions({
      onSuccess: () => {
        setUrl('');
        setSecret(randomSecret());
      },
    }),
  );
  const remove = useMutation(trpc.webhooks.deleteWebhook.mutationOptions());
  const submit = (event: FormEvent) => {
    event.preventDefault();
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
          <div className="row">
            <label className="field grow">
              <span>Secret</span>
              <input
                required
                minLength={16}
                maxLength={256}
                value={secret}
                onChange={(e) => setSecret(e.target.value)}
                className="mono"
              />
            </label>
            <button type="button" className="secondary" onClick={() => setSecret(randomSecret())}>
              New secret
            </button>
          </div>
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
          <p className="muted">Keep the secret: Sandbank never shows it again. Verify deliveries with it.</p>
          <ErrorNote error={create.error} />
          <button type="submit" disabled={create.isPending}>
            Register webhook
          </button>
        </form>
      </section>
      <section className="card" aria-labelledby="webhook-list">
        <h2 id="webhook-list">Your webhooks</h2>
        <ErrorNote error={webhooks.error ?? remove.error} />
        {webhooks.isPending ? (
          <Loading what="webhooks" />
        ) : list.length === 0 ? (
          <p className="empty">No webhooks yet.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Client</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created (world time)</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((hook) => (
                  <tr key={hook.id}>
                    <td className="mono">
                      <Link href={`/webhooks/${hook.id}`}>{hook.url}</Link>
                    </td>
                    <td>{hook.clientId}</td>
                    <td>
                      <StatusBadge status={hook.status} />
                      {hook.disabledReason && <small className="muted"> {hook.disabledReason}</small>}
                    </td>
                    <td>{formatDateTime(hook.createdAt)}</td>
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
          </div>
        )}
        <Pager meta={webhooks.data?.meta} onPage={setPage} label="Webhooks" />
      </section>
    </>
  );
}
