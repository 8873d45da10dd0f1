import { dataOf } from '@sandbank/schemas';
import { createApplication } from '../../domain/enablebanking/applications.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ApplicationSchema, CreateApplicationInputSchema, toApplicationView } from './application.schema.ts';

export const createApplicationProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/enablebanking/applications',
      tags: ['integrations'],
      summary: 'Register an Enable Banking application',
      description:
        'An app of yours that calls the Enable Banking face (`/enablebanking`) with its own RS256 JWTs: `kid` = this `id`, `iss` `enablebanking.com`, `aud` `api.enablebanking.com`, at most 24 h. Bring an RSA public key (PEM) or get a fresh pair: the private key is in this answer only. Counts toward LIMIT_API_KEYS with your active API keys (422 LIMIT_EXCEEDED).',
      successDescription: 'The application (and its private key, when Sandbank made the pair)',
    },
    successStatus: 201,
    errorCodes: ['VALIDATION_ERROR', 'LIMIT_EXCEEDED'],
  })
  .input(CreateApplicationInputSchema)
  .output(dataOf(ApplicationSchema))
  .mutation(async ({ ctx, input }) => {
    const { application, privateKey } = await createApplication(ctx.em, {
      userId: ctx.user.id,
      name: input.name,
      redirectUrls: input.redirectUrls,
      publicKey: input.publicKey,
      limit: ctx.deps.config.limits.apiKeys,
    });
    return { data: toApplicationView(application, privateKey) };
  });
