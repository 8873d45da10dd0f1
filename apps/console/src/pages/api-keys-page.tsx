/** API keys for the pull endpoint: create one (the key is shown once), list and revoke. */

import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmButton } from '../components/confirm-button.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { Loading, PageHeader, Pager, StatusBadge } from '../components/ui.tsx';
import { formatDateTime, localInputToIso } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { useUrlState } from '../lib/url-state.ts';

export function ApiKeysPage() {
  const trpc = useTRPC();
  const url = useUrlState(); // the page is in the address (`?page=`)
  const page = url.page();
  const setPage = (next: number) => url.set({ page: next }, { push: true });
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const keys = useQuery(trpc.integrations.listApiKeys.queryOptions({ page, limit: 20 }));
  const create = useMutation(
    trpc.integrations.createApiKey.mutationOptions({
      onSuccess: () => {
        setName('');
        setExpires('');
      },
    }),
  );
  const revoke = useMutation(trpc.integrations.revokeApiKey.mutationOptions());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expiresAt = localInputToIso(expires);
    create.mutate({ name, ...(expiresAt ? { expiresAt } : {}) });
  };
  const setup = useMutation(trpc.simplefin.createSetupToken.mutationOptions());
  const created = create.data?.data;
  const setupToken = setup.data?.data;
  const list = keys.data?.data ?? [];
  const now = Date.now();

  return (
    <>
      <PageHeader
        title="API keys"
        subtitle={
          <>
            For <code>GET /api/owner/:owner/transactions</code>: an app reads your transactions with a key, without your password.
          </>
        }
      />
      <section className="card" aria-labelledby="new-key">
        <h2 id="new-key">Create a key</h2>
        <form className="row" onSubmit={submit}>
          <label className="field">
            <span>Name</span>
            <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="Budget app" />
          </label>
          <label className="field">
            <span>Expires (optional)</span>
            <input type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />
          </label>
          <button type="submit" disabled={create.isPending}>
            Create key
          </button>
        </form>
        <ErrorNote error={create.error} />
        {created && (
          <div className="note success" role="status">
            <strong>Copy “{created.name}” now: it is shown only once.</strong>
            <div className="secret" data-testid="new-key">
              {created.key}
            </div>
            <div>
              <CopyButton text={created.key} label="Copy key" />
            </div>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="simplefin">
        <h2 id="simplefin">Connect a budgeting app (SimpleFIN)</h2>
        <p className="muted">
          Actual Budget and other SimpleFIN apps sync your sandbox as a bank. Create a setup token and paste it in the app; it
          works once, for 7 days, and becomes a key named “SimpleFIN” below (revoke it to cut the app off).
        </p>
        <div className="row">
          <button type="button" className="secondary" disabled={setup.isPending} onClick={() => setup.mutate({})}>
            Create a setup token
          </button>
        </div>
        <ErrorNote error={setup.error} />
        {setupToken && (
          <div className="note success" role="status">
            <strong>Paste this setup token in your budgeting app (valid until {formatDateTime(setupToken.expiresAt)}):</strong>
            <div className="secret" data-testid="setup-token">
              {setupToken.setupToken}
            </div>
            <div>
              <CopyButton text={setupToken.setupToken} label="Copy setup token" />
            </div>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="key-list">
        <h2 id="key-list">Your keys</h2>
        <ErrorNote error={keys.error ?? revoke.error} />
        {keys.isPending ? (
          <Loading what="keys" />
        ) : list.length === 0 ? (
          <p className="empty">No keys yet.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Created (world time)</th>
                  <th scope="col">Last used (world time)</th>
                  <th scope="col">Expires (world time)</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name}</td>
                    <td className="mono">
                      {key.prefix}… <CopyButton text={key.id} label="Copy key id" />
                    </td>
                    <td>{formatDateTime(key.createdAt)}</td>
                    <td>{formatDateTime(key.lastUsedAt)}</td>
                    <td>
                      {key.expiresAt && new Date(key.expiresAt).getTime() <= now ? (
                        <StatusBadge status="expired" />
                      ) : (
                        formatDateTime(key.expiresAt)
                      )}
                    </td>
                    <td className="actions">
                      <ConfirmButton
                        label="Revoke"
                        question={<>Revoke the key “{key.name}”? Apps using it stop working at once; this cannot be undone.</>}
                        disabled={revoke.isPending}
                        onConfirm={() => revoke.mutate({ id: key.id })}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager meta={keys.data?.meta} onPage={setPage} label="API keys" />
      </section>
    </>
  );
}
