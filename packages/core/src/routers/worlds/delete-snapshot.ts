import { deleteSnapshot } from '../../domain/worlds/snapshots.ts';
import { toSnapshot } from '../../mappers/world.ts';
import { worldOwnerProcedure } from '../../trpc.ts';
import { SnapshotIdInputSchema, SnapshotOutputSchema } from './worlds.schema.ts';

export const deleteSnapshotProcedure = worldOwnerProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/v1/sandbox/snapshots/{id}',
      tags: ['worlds'],
      summary: 'Delete a snapshot',
      description: 'Worlds forked from it live on (their snapshotId becomes null). Another user’s snapshot is 404.',
    },
    errorCodes: ['NOT_FOUND', 'FORBIDDEN'],
  })
  .input(SnapshotIdInputSchema)
  .output(SnapshotOutputSchema)
  .mutation(async ({ ctx, input }) => ({
    data: toSnapshot(await deleteSnapshot(ctx.em, { userId: ctx.user.id, id: input.id })),
  }));
