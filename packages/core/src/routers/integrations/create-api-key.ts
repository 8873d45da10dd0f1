import { createApiKey } from '../../domain/integrations/api-keys.ts';
import { toApiKey } from '../../mappers/api-key.ts';
import { protectedProcedure } from '../../trpc.ts';
import { CreateApiKeyInputSchema, CreateApiKeyOutputSchema } from './api-keys.schema.ts';

export const createApiKeyProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/api-keys',
      tags: ['integrations'],
      summary: 'Create an API key',
      description:
        'Issues a key that reads the caller’s transactions through `GET /api/owner/{owner}/transactions`. The key is returned only in this response; Sandbank keeps a SHA-256 hash of it.',
      successDescription: 'The new key, shown once',
    },
    successStatus: 201,
  })
  .input(CreateApiKeyInputSchema)
  .output(CreateApiKeyOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : undefined;
    const { apiKey, key } = await createApiKey(ctx.em, {
      userId: ctx.user.id,
      name: input.name,
      expiresAt,
      limit: ctx.deps.config.limits.apiKeys,
    });
    return { data: { ...toApiKey(apiKey), key } };
  });
