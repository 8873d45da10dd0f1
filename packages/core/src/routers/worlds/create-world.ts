import type { EventType } from '@sandbank/schemas';
import { checkScenarioBounds } from '../../domain/scenarios/scenario-document.ts';
import { DEFAULT_TTL, ttlMilliseconds } from '../../domain/worlds/ttl.ts';
import { createWorld } from '../../domain/worlds/worlds.ts';
import { isoTimestamp } from '../../lib/timestamps.ts';
import { toWorld } from '../../mappers/world.ts';
import { worldOwnerProcedure } from '../../trpc.ts';
import { CreateWorldInputSchema, CreateWorldOutputSchema } from './worlds.schema.ts';

export const createWorldProcedure = worldOwnerProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/worlds',
      tags: ['worlds'],
      summary: 'Create a disposable child world',
      description:
        'A new user without a password, owned by you, filled from one of your snapshots (new ids, same shape, same relative dates, the snapshot’s clock offset; fast: its rows are copied inside the database) or from a scenario (as POST /v1/scenarios/apply). The answer carries its access token, refresh token and an API key, shown once; a snapshot that kept webhooks or API keys (`include`) gives the world fresh ones of each — same URLs, events, names, new secrets and keys (never the parent’s), shown once in `webhooks` and `apiKeys`. After `ttl` (default PT1H, PT1S–P7D, wall time) the worker removes it and all its data; DELETE /v1/worlds/{id} removes it at once. Your own calls never read its data: use its credentials. A child world cannot create worlds (403 FORBIDDEN). LIMIT_WORLDS live worlds per user (422 LIMIT_EXCEEDED); the kept API keys still active and the world’s own must fit LIMIT_API_KEYS (422 LIMIT_EXCEEDED, path apiKeys). Access token or API key. Bodies up to 16 MiB (a scenario).',
      successDescription: 'The world and its credentials, shown once',
    },
    successStatus: 201,
    errorCodes: ['NOT_FOUND', 'FORBIDDEN', 'LIMIT_EXCEEDED', 'SCENARIO_TOO_LARGE', 'INSUFFICIENT_FUNDS', 'ADVANCE_TOO_LARGE'],
  })
  // A scenario's bounds answer 422 (docs/reference/limits.md), checked on the raw body before it is parsed, as for an apply.
  .use(async ({ getRawInput, next }) => {
    const scenario = ((await getRawInput()) as { scenario?: unknown } | null | undefined)?.scenario;
    if (scenario !== undefined) checkScenarioBounds(scenario);
    return next();
  })
  .input(CreateWorldInputSchema)
  .output(CreateWorldOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const ttlMs = ttlMilliseconds(input.ttl ?? DEFAULT_TTL) as number;
    // The schema takes exactly one of the two.
    const source = input.scenario === undefined ? { snapshotId: input.snapshotId ?? '' } : { scenario: input.scenario };
    const { world, session, apiKey, credentials, scenario } = await createWorld(ctx.em, ctx.deps, {
      parentId: ctx.user.id,
      source,
      ttlMs,
    });
    return {
      data: {
        world: toWorld(world),
        ...session,
        apiKey: {
          id: apiKey.id,
          name: apiKey.name,
          prefix: apiKey.prefix,
          createdAt: isoTimestamp(apiKey.created_at),
          key: apiKey.key,
        },
        webhooks: credentials.webhooks.map((webhook) => ({
          id: webhook.id,
          url: webhook.url,
          events: webhook.events as EventType[],
          clientId: webhook.client_id,
          status: webhook.status,
          secret: webhook.secret,
        })),
        apiKeys: credentials.apiKeys.map((key) => ({
          id: key.id,
          name: key.name,
          prefix: key.prefix,
          createdAt: isoTimestamp(key.created_at),
          expiresAt: key.expires_at === null ? null : isoTimestamp(key.expires_at),
          key: key.key,
        })),
        ...(scenario
          ? { scenario: { transactions: scenario.transactions, schedules: scenario.schedules, accounts: scenario.accounts } }
          : {}),
      },
    };
  });
