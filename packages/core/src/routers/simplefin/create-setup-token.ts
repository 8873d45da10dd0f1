import { dataOf, TimestampSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { createSetupToken } from '../../domain/simplefin/setup-tokens.ts';
import { protectedProcedure } from '../../trpc.ts';

export const createSetupTokenProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/simplefin/setup-token',
      tags: ['integrations'],
      summary: 'A SimpleFIN setup token for a budgeting app',
      description:
        'Paste `setupToken` into a SimpleFIN client (e.g. Actual Budget). It is base64 of `claimUrl`, valid 7 days and once: the claim answers an access URL whose password is a new API key of yours named "SimpleFIN" (revoke it to cut the app off).',
    },
    successStatus: 201,
  })
  .input(z.strictObject({}))
  .output(
    dataOf(
      z.object({
        setupToken: z.string().meta({ description: 'base64(claimUrl): what a SimpleFIN client asks for' }),
        claimUrl: z.url(),
        expiresAt: TimestampSchema,
      }),
    ).meta({ id: 'SimplefinSetupToken' }),
  )
  .mutation(async ({ ctx }) => {
    const token = await createSetupToken(ctx.em, { userId: ctx.user.id, publicUrl: ctx.deps.config.http.publicUrl });
    return { data: { ...token, expiresAt: token.expiresAt.toISOString() } };
  });
