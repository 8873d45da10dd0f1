import { restoreSnapshot } from '../../domain/worlds/restore-snapshot.ts';
import { toSnapshot } from '../../mappers/world.ts';
import { worldOwnerProcedure } from '../../trpc.ts';
import { RestoreSnapshotInputSchema, RestoreSnapshotOutputSchema } from './worlds.schema.ts';

export const restoreSnapshotProcedure = worldOwnerProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/sandbox/restore',
      tags: ['worlds'],
      summary: 'Put your world back to a snapshot',
      description:
        'All or none: your accounts, transactions, schedules and events go (as a reset), the clock takes the snapshot’s offset, and the snapshot’s accounts, transactions, schedules and runs come back with new ids and the same relative dates. API keys and webhooks stay. Sync cursors issued before it answer 410 CURSOR_EXPIRED. Another user’s snapshot is 404.',
    },
    errorCodes: ['NOT_FOUND', 'CLOCK_ADVANCING', 'FORBIDDEN'],
  })
  .input(RestoreSnapshotInputSchema)
  .output(RestoreSnapshotOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { snapshot, removed } = await restoreSnapshot(ctx.em, { userId: ctx.user.id, snapshotId: input.snapshotId });
    return { data: { snapshot: toSnapshot(snapshot), removed } };
  });
