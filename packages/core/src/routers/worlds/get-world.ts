import { getWorld } from '../../domain/worlds/worlds.ts';
import { toWorld } from '../../mappers/world.ts';
import { worldOwnerProcedure } from '../../trpc.ts';
import { WorldIdInputSchema, WorldOutputSchema } from './worlds.schema.ts';

export const getWorldProcedure = worldOwnerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/worlds/{id}',
      tags: ['worlds'],
      summary: 'Get a child world',
      description: 'Anyone else’s world, or an expired one, is 404.',
    },
    errorCodes: ['NOT_FOUND', 'FORBIDDEN'],
  })
  .input(WorldIdInputSchema)
  .output(WorldOutputSchema)
  .query(async ({ ctx, input }) => ({ data: toWorld(await getWorld(ctx.em, { parentId: ctx.user.id, id: input.id })) }));
