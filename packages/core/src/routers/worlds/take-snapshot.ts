import { takeSnapshot } from '../../domain/worlds/snapshots.ts';
import { toSnapshot } from '../../mappers/world.ts';
import { worldOwnerProcedure } from '../../trpc.ts';
import { SnapshotOutputSchema, TakeSnapshotInputSchema } from './worlds.schema.ts';

export const takeSnapshotProcedure = worldOwnerProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/sandbox/snapshots',
      tags: ['worlds'],
      summary: 'Keep your world as it is now',
      description:
        'Keeps the accounts, transactions (every status, holds included), schedules with their runs, and the clock (now and offset) of your world, server-side, to fork (POST /v1/worlds) or restore (POST /v1/sandbox/restore) later. Not kept: credentials, webhooks, the event log. Read as one consistent instant without blocking the world. Access token or API key. LIMIT_SNAPSHOTS per user and LIMIT_SNAPSHOT_TRANSACTIONS transactions per snapshot (422 LIMIT_EXCEEDED).',
      successDescription: 'The snapshot',
    },
    successStatus: 201,
    errorCodes: ['LIMIT_EXCEEDED', 'FORBIDDEN', 'CONFLICT'],
  })
  .input(TakeSnapshotInputSchema)
  .output(SnapshotOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { snapshots, snapshotTransactions } = ctx.deps.config.limits;
    return {
      data: toSnapshot(
        await takeSnapshot(ctx.em, { userId: ctx.user.id, name: input.name, limits: { snapshots, snapshotTransactions } }),
      ),
    };
  });
