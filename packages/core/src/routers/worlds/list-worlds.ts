import { listMeta } from '@sandbank/schemas';
import { listWorlds } from '../../domain/worlds/worlds.ts';
import { toWorld } from '../../mappers/world.ts';
import { worldOwnerProcedure } from '../../trpc.ts';
import { ListWorldsInputSchema, ListWorldsOutputSchema } from './worlds.schema.ts';

export const listWorldsProcedure = worldOwnerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/worlds',
      tags: ['worlds'],
      summary: 'List your child worlds',
      description: 'Live ones (not expired), newest first. Never their credentials.',
    },
    errorCodes: ['FORBIDDEN'],
  })
  .input(ListWorldsInputSchema)
  .output(ListWorldsOutputSchema)
  .query(async ({ ctx, input }) => {
    const { items, total } = await listWorlds(ctx.em, { parentId: ctx.user.id, page: input.page, limit: input.limit });
    return { data: items.map(toWorld), meta: listMeta(input.page, input.limit, total) };
  });
