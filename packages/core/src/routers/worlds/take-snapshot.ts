import { checkScenarioBounds } from '../../domain/scenarios/scenario-document.ts';
import { snapshotScenario } from '../../domain/worlds/scenario-snapshot.ts';
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
        'Keeps the accounts, transactions (every status, holds included), schedules with their runs, and the clock (now and offset) of your world, server-side, to fork (POST /v1/worlds) or restore (POST /v1/sandbox/restore) later. Not kept: sessions, the event log, and — unless `include` names them — webhooks and API keys (kept without their secrets: a fork makes fresh ones). Read as one consistent instant without blocking the world. With `scenario`, keeps the world that scenario builds (applied to a temporary world, then removed; your own world untouched; bodies up to 16 MiB). Access token or API key. LIMIT_SNAPSHOTS per user and LIMIT_SNAPSHOT_TRANSACTIONS transactions per snapshot (422 LIMIT_EXCEEDED).',
      successDescription: 'The snapshot',
    },
    successStatus: 201,
    errorCodes: ['LIMIT_EXCEEDED', 'FORBIDDEN', 'CONFLICT', 'SCENARIO_TOO_LARGE', 'INSUFFICIENT_FUNDS', 'ADVANCE_TOO_LARGE'],
  })
  // A scenario's bounds answer 422 (docs/reference/limits.md), checked on the raw body before it is parsed, as for an apply.
  .use(async ({ getRawInput, next }) => {
    const scenario = ((await getRawInput()) as { scenario?: unknown } | null | undefined)?.scenario;
    if (scenario !== undefined) checkScenarioBounds(scenario);
    return next();
  })
  .input(TakeSnapshotInputSchema)
  .output(SnapshotOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { snapshots, snapshotTransactions } = ctx.deps.config.limits;
    const params = {
      userId: ctx.user.id,
      name: input.name,
      include: input.include ?? [],
      limits: { snapshots, snapshotTransactions },
    };
    const snapshot = input.scenario
      ? await snapshotScenario(ctx.em, ctx.deps, { ...params, scenario: input.scenario })
      : await takeSnapshot(ctx.em, params);
    return { data: toSnapshot(snapshot) };
  });
