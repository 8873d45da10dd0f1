/** Restore the world to a snapshot or delete the snapshot: both ask first; what a restore removed is said after. */
import { useMutation } from '@tanstack/react-query';
import { formatCount } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { ConfirmButton } from './confirm-button.tsx';

export function useSnapshotActions(onDeleted?: () => void) {
  const trpc = useTRPC();
  const restore = useMutation(trpc.worlds.restoreSnapshot.mutationOptions());
  const remove = useMutation(trpc.worlds.deleteSnapshot.mutationOptions({ onSuccess: () => onDeleted?.() }));
  return { restore, remove };
}

type Actions = ReturnType<typeof useSnapshotActions>;

export function SnapshotButtons({ snapshot, actions }: { snapshot: { id: string; name: string }; actions: Actions }) {
  const busy = actions.restore.isPending || actions.remove.isPending;
  return (
    <>
      <ConfirmButton
        label="Restore"
        className="secondary small"
        question={
          <>
            Put your world back to “{snapshot.name}”? Your accounts, transactions, schedules and events now are removed and the
            snapshot’s come back with new ids; the clock takes its offset. API keys and webhooks stay. This cannot be undone.
          </>
        }
        disabled={busy}
        onConfirm={() => actions.restore.mutate({ snapshotId: snapshot.id })}
      />
      <ConfirmButton
        label="Delete"
        question={<>Delete the snapshot “{snapshot.name}”? Worlds forked from it live on; this cannot be undone.</>}
        disabled={busy}
        onConfirm={() => actions.remove.mutate({ id: snapshot.id })}
      />
    </>
  );
}

export function RestoreResult({ actions }: { actions: Actions }) {
  const result = actions.restore.data?.data;
  if (!result) return null;
  return (
    <div className="note success" role="status" data-testid="restore-result">
      Your world is “{result.snapshot.name}” again: {formatCount(result.snapshot.accounts)} accounts,{' '}
      {formatCount(result.snapshot.transactions)} transactions and {result.snapshot.schedules} schedules. Removed what it held:{' '}
      {result.removed.accounts} accounts, {result.removed.transactions} transactions, {result.removed.schedules} schedules,{' '}
      {result.removed.events} events.
    </div>
  );
}
