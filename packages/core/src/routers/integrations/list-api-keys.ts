import { listMeta } from '@sandbank/schemas';
import { listApiKeys } from '../../domain/integrations/api-keys.ts';
import { toApiKey } from '../../mappers/api-key.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ListApiKeysInputSchema, ListApiKeysOutputSchema } from './api-keys.schema.ts';

export const listApiKeysProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/api-keys',
      tags: ['integrations'],
      summary: 'List API keys',
      description:
        'The caller’s keys, newest first: by default those not revoked (expired ones included); `status=all` adds the revoked ones (with `revokedAt`), so a console can show them as revoked. Never the key itself: only its visible prefix.',
    },
  })
  .input(ListApiKeysInputSchema)
  .output(ListApiKeysOutputSchema)
  .query(async ({ ctx, input }) => {
    const { items, total } = await listApiKeys(ctx.em, {
      userId: ctx.user.id,
      status: input.status,
      page: input.page,
      limit: input.limit,
    });
    return { data: items.map(toApiKey), meta: listMeta(input.page, input.limit, total) };
  });
