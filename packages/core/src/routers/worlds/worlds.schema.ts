import { dataOf, IdSchema, listOf, PageQuerySchema, SnapshotSchema, WorldSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { ScenarioSchema } from '../../domain/scenarios/scenario-document.ts';
import { TtlSchema } from '../../domain/worlds/ttl.ts';
import { ResetSandboxOutputSchema } from '../sandbox/sandbox.schema.ts';

export const TakeSnapshotInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(100).meta({ example: 'family, a year of history' }),
  scenario: ScenarioSchema.optional().meta({
    description:
      'Keep the world this scenario builds instead of yours (applied to a temporary world, which is then removed): a test suite’s global setup makes its snapshot so',
  }),
});
export const SnapshotOutputSchema = dataOf(SnapshotSchema);
export const ListSnapshotsInputSchema = z.strictObject({ ...PageQuerySchema });
export const ListSnapshotsOutputSchema = listOf(SnapshotSchema);
export const SnapshotIdInputSchema = z.strictObject({ id: IdSchema });

export const RestoreSnapshotInputSchema = z.strictObject({ snapshotId: IdSchema });
export const RestoreSnapshotOutputSchema = dataOf(
  z.object({
    snapshot: SnapshotSchema,
    removed: ResetSandboxOutputSchema.shape.data.shape.removed.meta({
      description: 'What the world held before (as a reset counts it)',
    }),
  }),
).meta({ id: 'RestoreResult' });

export const CreateWorldInputSchema = z
  .strictObject({
    snapshotId: IdSchema.optional().meta({ description: 'Fork this snapshot of yours (fast: rows copied inside the database)' }),
    scenario: ScenarioSchema.optional().meta({ description: 'Or build the world from a scenario (as POST /v1/scenarios/apply)' }),
    ttl: TtlSchema.optional(),
  })
  .refine((input) => (input.snapshotId === undefined) !== (input.scenario === undefined), {
    message: 'Give exactly one of snapshotId and scenario',
    path: ['snapshotId'],
  });

const CreatedWorldSchema = z
  .object({
    world: WorldSchema,
    accessToken: z.string().meta({ description: "The world's access token (a JWT, short-lived); shown once" }),
    refreshToken: z.string().meta({ description: 'Refreshes the access token (POST /v1/auth/refresh); works once; shown once' }),
    tokenType: z.literal('Bearer'),
    expiresIn: z.int().meta({ description: 'Seconds until the access token expires' }),
    apiKey: z
      .object({
        id: IdSchema,
        name: z.string(),
        prefix: z.string(),
        createdAt: z.iso.datetime({ precision: 3 }),
        key: z.string().meta({ description: 'An API key of the world (`sbk_…`), shown only in this response' }),
      })
      .meta({ description: "The world's API key: the pull endpoint, SimpleFIN, Plaid and GoCardless faces" }),
    scenario: z
      .object({
        transactions: z.int(),
        schedules: z.int(),
        accounts: z.array(z.object({ key: z.string(), id: IdSchema, name: z.string() })),
      })
      .optional()
      .meta({ description: 'A world built from a scenario: what it built' }),
  })
  .meta({ id: 'CreatedWorld' });

export const CreateWorldOutputSchema = dataOf(CreatedWorldSchema);
export const WorldOutputSchema = dataOf(WorldSchema);
export const ListWorldsInputSchema = z.strictObject({ ...PageQuerySchema });
export const ListWorldsOutputSchema = listOf(WorldSchema);
export const WorldIdInputSchema = z.strictObject({ id: IdSchema });
