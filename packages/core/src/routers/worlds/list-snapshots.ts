import { listMeta } from '@sandbank/schemas';
import { listSnapshots } from '../../domain/worlds/snapshots.ts';
import { toSnapshot } from '../../mappers/world.ts';
import { worldOwnerProcedure } from '../../trpc.ts';
import { ListSnapshotsInputSchema, ListSnapshotsOutputSchema } from './worlds.schema.ts';

export const listSnapshotsProcedure = worldOwnerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/sandbox/snapshots',
      tags: ['worlds'],
      summary: 'List your snapshots',
      description: 'Newest first.',
    },
    errorCodes: ['FORBIDDEN'],
  })
  .input(ListSnapshotsInputSchema)
  .output(ListSnapshotsOutputSchema)
  .query(async ({ ctx, input }) => {
    const { items, total } = await listSnapshots(ctx.em, { userId: ctx.user.id, page: input.page, limit: input.limit });
    return { data: items.map(toSnapshot), meta: listMeta(input.page, input.limit, total) };
  });
