/**
 * Snapshots and child worlds (docs/guides/testing-your-app.md): keep the world as it is now, put it
 * back later, and fork disposable child worlds (each with its own credentials, shown once) that the
 * worker removes when their time runs out.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { ChildWorlds } from '../components/child-worlds.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { ForkWorldForm } from '../components/fork-world-form.tsx';
import { TableHead } from '../components/list-section.tsx';
import { RestoreResult, SnapshotButtons, useSnapshotActions } from '../components/snapshot-actions.tsx';
import { Loading, PageHeader, Pager } from '../components/ui.tsx';
import { formatCount, formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { useUrlState } from '../lib/url-state.ts';

export function WorldsPage() {
  const trpc = useTRPC();
  const url = useUrlState(); // both lists' pages are in the address (`?page=`, `?worlds-page=`)
  const page = url.page();
  const worldsPage = url.page('worlds-page');
  const [name, setName] = useState('');
  const snapshots = useQuery(trpc.worlds.listSnapshots.queryOptions({ page, limit: 20 }));
  const take = useMutation(trpc.worlds.takeSnapshot.mutationOptions({ onSuccess: () => setName('') }));
  const actions = useSnapshotActions();
  const list = snapshots.data?.data ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    take.mutate({ name });
  };

  return (
    <>
      <PageHeader
        title="Snapshots and worlds"
        subtitle="Keep your world as it is now and put it back later, or fork disposable child worlds from it for a test run."
      />
      <section className="card" aria-labelledby="take-snapshot">
        <h2 id="take-snapshot">Take a snapshot</h2>
        <p className="muted">
          Keeps your accounts, transactions, schedules and clock. Not kept: API keys, webhooks, the event log.
        </p>
        <form className="row" onSubmit={submit}>
          <label className="field">
            <span>Name</span>
            <input
              required
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Before the test run"
            />
          </label>
          <button type="submit" disabled={take.isPending}>
            Take snapshot
          </button>
        </form>
        <ErrorNote error={take.error} />
        {take.data && (
          <div className="note success" role="status" data-testid="snapshot-taken">
            Kept “{take.data.data.name}”: {take.data.data.accounts} accounts, {take.data.data.transactions} transactions.
          </div>
        )}
      </section>

      <section className="card" aria-labelledby="snapshot-list">
        <h2 id="snapshot-list">Snapshots</h2>
        <ErrorNote error={snapshots.error ?? actions.restore.error ?? actions.remove.error} />
        <RestoreResult actions={actions} />
        {snapshots.isPending ? (
          <Loading what="snapshots" />
        ) : list.length === 0 ? (
          <p className="empty">No snapshots yet: take one above.</p>
        ) : (
          <div className="table-wrap">
            <table aria-label="Snapshots" className="scroll-table">
              <TableHead
                columns={['Name', { label: 'Accounts', num: true }, { label: 'Transactions', num: true }, 'Taken (world time)']}
                actions
              />
              <tbody>
                {list.map((snapshot) => (
                  <tr key={snapshot.id}>
                    <td data-label="Name">
                      <Link href={`/worlds/snapshots/${snapshot.id}`}>{snapshot.name}</Link>
                    </td>
                    <td data-label="Accounts" className="num">
                      {formatCount(snapshot.accounts)}
                    </td>
                    <td data-label="Transactions" className="num">
                      {formatCount(snapshot.transactions)}
                    </td>
                    <td data-label="Taken (world time)">{formatDateTime(snapshot.takenAt)}</td>
                    <td className="actions">
                      <SnapshotButtons snapshot={snapshot} actions={actions} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager meta={snapshots.data?.meta} onPage={(next) => url.set({ page: next }, { push: true })} label="Snapshots" />
      </section>

      <section className="card" aria-labelledby="fork-world">
        <h2 id="fork-world">Fork a child world</h2>
        <p className="muted">
          A new world of its own (a user without a password) built from a snapshot or a scenario. Your tests use its credentials;
          your own world is never touched.
        </p>
        <ForkWorldForm snapshots={list} />
      </section>

      <section className="card" aria-labelledby="world-list">
        <h2 id="world-list">Child worlds</h2>
        <ChildWorlds
          page={worldsPage}
          onPage={(next) => url.set({ 'worlds-page': next }, { push: true })}
          snapshotNames={new Map(list.map((snapshot) => [snapshot.id, snapshot.name]))}
        />
      </section>
    </>
  );
}
