import {
  dataOf,
  EventTypeSchema,
  IdSchema,
  listOf,
  PageQuerySchema,
  SnapshotIncludeSchema,
  SnapshotSchema,
  WebhookStatusSchema,
  WorldSchema,
} from '@sandbank/schemas';
import { z } from 'zod';
import { ScenarioSchema } from '../../domain/scenarios/scenario-document.ts';
import { TtlSchema } from '../../domain/worlds/ttl.ts';
import { ResetSandboxOutputSchema } from '../sandbox/sandbox.schema.ts';

export const TakeSnapshotInputSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(100).meta({ example: 'family, a year of history' }),
    scenario: ScenarioSchema.optional().meta({
      description:
        'Keep the world this scenario builds instead of yours (applied to a temporary world, which is then removed): a test suite’s global setup makes its snapshot so',
    }),
    include: z
      .array(SnapshotIncludeSchema)
      .max(2)
      .refine((kinds) => new Set(kinds).size === kinds.length, 'Each kind at most once')
      .optional()
      .meta({
        description:
          'Also keep these, never their secrets (default: neither). `webhooks`: each live webhook’s URL, event kinds, client id, status and faults — a fork registers each anew with a fresh signing secret, shown once in its answer. `apiKeys`: each unrevoked key’s name, age and expiry — a fork makes a fresh key of each, shown once. A restore leaves your own webhooks and keys as they are.',
        example: ['webhooks', 'apiKeys'],
      }),
  })
  .refine((input) => !(input.scenario && input.include?.includes('apiKeys')), {
    message: 'A scenario’s world has no API keys to keep; `include` may name only webhooks with a scenario',
    path: ['include'],
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
    webhooks: z
      .array(
        z.object({
          id: IdSchema,
          url: z.url(),
          events: z.array(EventTypeSchema),
          clientId: z.string(),
          status: WebhookStatusSchema,
          secret: z.string().meta({ description: 'Its new signing secret (`whsec_…`), shown only in this response' }),
        }),
      )
      .meta({
        description:
          'The snapshot’s webhooks (kept with `include: ["webhooks"]`), registered anew in this world, each with a fresh secret; its deliveries are signed with it. Empty otherwise',
      }),
    apiKeys: z
      .array(
        z.object({
          id: IdSchema,
          name: z.string(),
          prefix: z.string(),
          createdAt: z.iso.datetime({ precision: 3 }),
          expiresAt: z.iso.datetime({ precision: 3 }).nullable(),
          key: z.string().meta({ description: 'The new key (`sbk_…`), shown only in this response' }),
        }),
      )
      .meta({
        description:
          'The snapshot’s API keys (kept with `include: ["apiKeys"]`), made anew in this world: same names and relative dates, fresh keys (never the parent’s). Besides `apiKey`. Empty otherwise',
      }),
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
