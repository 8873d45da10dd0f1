/** The live child worlds (newest first), with when each is removed (real time: a TTL is wall time) and Remove. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { ConfirmButton } from './confirm-button.tsx';
import { CopyButton } from './copy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { TableHead } from './list-section.tsx';
import { BreakableAddress, Loading, Pager } from './ui.tsx';

/** "in 59 min", "in 3 h", "in 2 days": how long a world has left. */
function remaining(expiresAt: string, now: number): string {
  const minutes = Math.max(0, Math.round((new Date(expiresAt).getTime() - now) / 60_000));
  if (minutes < 120) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `in ${hours} h` : `in ${Math.round(hours / 24)} days`;
}

interface Props {
  page: number;
  onPage: (page: number) => void;
  /** Only the worlds forked from this snapshot (of the newest 200). */
  snapshotId?: string;
  snapshotNames: Map<string, string>;
}

export function ChildWorlds({ page, onPage, snapshotId, snapshotNames }: Props) {
  const trpc = useTRPC();
  const worlds = useQuery(trpc.worlds.listWorlds.queryOptions(snapshotId ? { page: 1, limit: 200 } : { page, limit: 20 }));
  const remove = useMutation(trpc.worlds.removeWorld.mutationOptions());
  const list = (worlds.data?.data ?? []).filter((world) => !snapshotId || world.snapshotId === snapshotId);
  const now = Date.now();
  return (
    <>
      <ErrorNote error={worlds.error ?? remove.error} />
      {worlds.isPending ? (
        <Loading what="worlds" />
      ) : list.length === 0 ? (
        <p className="empty">No child world is alive. Fork one above: it is removed with all its data when its time runs out.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Child worlds" className="scroll-table">
            <TableHead columns={['World', 'From', 'Created (real time)', 'Removed (real time)']} actions />
            <tbody>
              {list.map((world) => (
                <tr key={world.id}>
                  <td data-label="World">
                    <span className="mono">
                      <BreakableAddress text={world.email} />
                    </span>{' '}
                    <CopyButton text={world.id} label="Copy world id" />
                  </td>
                  <td data-label="From">
                    {world.source === 'scenario' ? (
                      'a scenario'
                    ) : world.snapshotId ? (
                      <Link href={`/worlds/snapshots/${world.snapshotId}`}>
                        {snapshotNames.get(world.snapshotId) ?? 'a snapshot'}
                      </Link>
                    ) : (
                      'a deleted snapshot'
                    )}
                  </td>
                  <td data-label="Created (real time)">{formatDateTime(world.createdAt)}</td>
                  <td data-label="Removed (real time)">
                    {formatDateTime(world.expiresAt)} <span className="muted">({remaining(world.expiresAt, now)})</span>
                  </td>
                  <td className="actions">
                    <ConfirmButton
                      label="Remove"
                      question={
                        <>
                          Remove the world {world.email} now? All its data goes and its tokens and API key stop working; this
                          cannot be undone.
                        </>
                      }
                      disabled={remove.isPending}
                      onConfirm={() => remove.mutate({ id: world.id })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {!snapshotId && <Pager meta={worlds.data?.meta} onPage={onPage} label="Child worlds" />}
    </>
  );
}
