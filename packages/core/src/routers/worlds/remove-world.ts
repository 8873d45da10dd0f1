import { removeWorld } from '../../domain/worlds/worlds.ts';
import { toWorld } from '../../mappers/world.ts';
import { worldOwnerProcedure } from '../../trpc.ts';
import { WorldIdInputSchema, WorldOutputSchema } from './worlds.schema.ts';

export const removeWorldProcedure = worldOwnerProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/v1/worlds/{id}',
      tags: ['worlds'],
      summary: 'End a child world now',
      description:
        'Removes the world and all its data at once (every table); its credentials stop working. Answers the world as it was. Anyone else’s world is 404.',
    },
    errorCodes: ['NOT_FOUND', 'FORBIDDEN'],
  })
  .input(WorldIdInputSchema)
  .output(WorldOutputSchema)
  .mutation(async ({ ctx, input }) => ({ data: toWorld(await removeWorld(ctx.em, { parentId: ctx.user.id, id: input.id })) }));
