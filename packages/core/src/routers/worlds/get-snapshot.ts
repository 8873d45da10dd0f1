import { getSnapshot } from '../../domain/worlds/snapshots.ts';
import { toSnapshot } from '../../mappers/world.ts';
import { worldOwnerProcedure } from '../../trpc.ts';
import { SnapshotIdInputSchema, SnapshotOutputSchema } from './worlds.schema.ts';

export const getSnapshotProcedure = worldOwnerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/sandbox/snapshots/{id}',
      tags: ['worlds'],
      summary: 'Get a snapshot',
      description: 'Another user’s snapshot is 404.',
    },
    errorCodes: ['NOT_FOUND', 'FORBIDDEN'],
  })
  .input(SnapshotIdInputSchema)
  .output(SnapshotOutputSchema)
  .query(async ({ ctx, input }) => ({ data: toSnapshot(await getSnapshot(ctx.em, { userId: ctx.user.id, id: input.id })) }));
