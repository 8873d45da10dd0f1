/** API keys for the pull endpoint: create one (the key is shown once), list and revoke; revoked keys stay listed as revoked. */

import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmButton } from '../components/confirm-button.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { ListSection, TableHead } from '../components/list-section.tsx';
import { ShownOnce } from '../components/shown-once.tsx';
import { PageHeader, StatusBadge } from '../components/ui.tsx';
import { formatDateTime, localInputToIso } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { ApiKey } from '../lib/types.ts';
import { usePageParam } from '../lib/url-state.ts';

const COLUMNS = ['Name', 'Prefix', 'Created (world time)', 'Last used (world time)', 'Expires (world time)', 'Status'];

/** Revoked, expired (by the real clock, as the pull endpoint checks it) or active. */
function keyStatus(key: ApiKey, now: number): 'revoked' | 'expired' | 'active' {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && new Date(key.expiresAt).getTime() <= now) return 'expired';
  return 'active';
}

export function ApiKeysPage() {
  const trpc = useTRPC();
  const [page, setPage] = usePageParam();
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const keys = useQuery(trpc.integrations.listApiKeys.queryOptions({ page, limit: 20, status: 'all' }));
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
          <ShownOnce
            title={<>Copy “{created.name}” now: it is shown only once.</>}
            value={created.key}
            copyLabel="Copy key"
            testId="new-key"
          />
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
          <ShownOnce
            title={<>Paste this setup token in your budgeting app (valid until {formatDateTime(setupToken.expiresAt)}):</>}
            value={setupToken.setupToken}
            copyLabel="Copy setup token"
            testId="setup-token"
          />
        )}
      </section>
      <ListSection
        id="key-list"
        title="Your keys"
        query={keys}
        actionError={revoke.error}
        what="keys"
        empty="No keys yet."
        onPage={setPage}
        pagerLabel="API keys"
      >
        <table aria-label="API keys">
          <TableHead columns={COLUMNS} actions />
          <tbody>
            {list.map((key) => {
              const status = keyStatus(key, now);
              return (
                <tr key={key.id} data-status={status}>
                  <td data-label="Name">{key.name}</td>
                  <td data-label="Prefix" className="mono">
                    {key.prefix}… <CopyButton text={key.id} label="Copy key id" />
                  </td>
                  <td data-label="Created (world time)">{formatDateTime(key.createdAt)}</td>
                  <td data-label="Last used (world time)">{formatDateTime(key.lastUsedAt)}</td>
                  <td data-label="Expires (world time)">{formatDateTime(key.expiresAt)}</td>
                  <td data-label="Status">
                    <StatusBadge status={status} />
                    {key.revokedAt && <small className="muted"> {formatDateTime(key.revokedAt)} (world time)</small>}
                  </td>
                  <td className="actions">
                    {status !== 'revoked' && (
                      <ConfirmButton
                        label="Revoke"
                        question={<>Revoke the key “{key.name}”? Apps using it stop working at once; this cannot be undone.</>}
                        disabled={revoke.isPending}
                        onConfirm={() => revoke.mutate({ id: key.id })}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ListSection>
    </>
  );
}
