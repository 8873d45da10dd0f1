import { revokeApiKey } from '../../domain/integrations/api-keys.ts';
import { toApiKey } from '../../mappers/api-key.ts';
import { protectedProcedure } from '../../trpc.ts';
import { RevokeApiKeyInputSchema, RevokeApiKeyOutputSchema } from './api-keys.schema.ts';

export const revokeApiKeyProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/v1/api-keys/{id}',
      tags: ['integrations'],
      summary: 'Revoke an API key',
      description:
        'The key stops working at once (401 on its next use) and leaves the default list (`GET /v1/api-keys?status=all` still shows it, with `revokedAt`). Another user’s key, or one already revoked, is 404.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(RevokeApiKeyInputSchema)
  .output(RevokeApiKeyOutputSchema)
  .mutation(async ({ ctx, input }) => ({
    data: toApiKey(await revokeApiKey(ctx.em, { userId: ctx.user.id, id: input.id })),
  }));
