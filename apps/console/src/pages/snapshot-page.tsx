/** One snapshot, deep-linkable: what it keeps, restore or delete it, and fork worlds from it. */
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { ChildWorlds } from '../components/child-worlds.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { ForkWorldForm } from '../components/fork-world-form.tsx';
import { RestoreResult, SnapshotButtons, useSnapshotActions } from '../components/snapshot-actions.tsx';
import { Loading, PageHeader } from '../components/ui.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';

const DAY_MS = 86_400_000;

export function SnapshotPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const snapshot = useQuery(trpc.worlds.getSnapshot.queryOptions({ id }));
  const actions = useSnapshotActions(() => navigate('/worlds'));
  const data = snapshot.data?.data;
  const offsetDays = (data?.clockOffsetMs ?? 0) / DAY_MS;

  return (
    <>
      <p>
        <Link href="/worlds">← Snapshots and worlds</Link>
      </p>
      <PageHeader title={data?.name ?? 'Snapshot'} subtitle="A snapshot of your world" />
      <ErrorNote error={snapshot.error} />
      {snapshot.isPending ? (
        <Loading what="the snapshot" />
      ) : (
        data && (
          <>
            <section className="card" aria-labelledby="snapshot-facts">
              <h2 id="snapshot-facts">What it keeps</h2>
              <dl className="facts" data-testid="snapshot-facts">
                <dt>Id</dt>
                <dd>
                  <span className="mono">{data.id}</span> <CopyButton text={data.id} label="Copy snapshot id" />
                </dd>
                <dt>Taken (world time)</dt>
                <dd>{formatDateTime(data.takenAt)}</dd>
                <dt>Clock</dt>
                <dd>{offsetDays >= 0.01 ? `${offsetDays.toFixed(1)} days ahead of real time` : 'the same as real time'}</dd>
                <dt>Accounts</dt>
                <dd>{data.accounts}</dd>
                <dt>Transactions</dt>
                <dd>{data.transactions}</dd>
                <dt>Schedules</dt>
                <dd>{data.schedules}</dd>
              </dl>
              <ErrorNote error={actions.restore.error ?? actions.remove.error} />
              <RestoreResult actions={actions} />
              <div className="row">
                <SnapshotButtons snapshot={data} actions={actions} />
              </div>
            </section>
            <section className="card" aria-labelledby="fork-world">
              <h2 id="fork-world">Fork a child world from it</h2>
              <ForkWorldForm snapshots={[data]} scenarios={false} />
            </section>
            <section className="card" aria-labelledby="world-list">
              <h2 id="world-list">Worlds forked from it</h2>
              <ChildWorlds page={1} onPage={() => {}} snapshotId={data.id} snapshotNames={new Map([[data.id, data.name]])} />
            </section>
          </>
        )
      )}
    </>
  );
}
