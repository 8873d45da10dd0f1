import { dataOf, IdSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { decideAuthorization } from '../../domain/enablebanking/authorizations.ts';
import { protectedProcedure } from '../../trpc.ts';

export const decideAuthorizationProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/enablebanking/authorizations/{id}/decision',
      tags: ['integrations'],
      summary: 'Approve or refuse an Enable Banking authorization (the consent page)',
      description:
        'What the consent page behind `POST /auth`’s `url` sends. `approve: true` grants the accounts picked (default: every open account) and answers the app’s `redirect_url` with a one-time `code` and the app’s `state`, which the app exchanges at `POST /sessions`; `false` refuses (`error=access_denied`). Once only: a decided authorization is 409 CONFLICT. Another user’s authorization is 404.',
    },
    errorCodes: ['NOT_FOUND', 'CONFLICT', 'VALIDATION_ERROR'],
  })
  .input(
    z.strictObject({
      id: z.uuid(),
      approve: z.boolean(),
      accountIds: z.array(IdSchema).min(1).max(100).optional(),
    }),
  )
  .output(
    dataOf(
      z.object({
        id: z.uuid(),
        status: z.enum(['approved', 'refused']),
        redirect: z
          .url()
          .meta({ description: 'Where the owner’s browser goes: the app’s redirect_url with `code` (or `error`) and `state`' }),
      }),
    ).meta({ id: 'EnablebankingDecision' }),
  )
  .mutation(async ({ ctx, input }) => {
    const { authorization, redirect } = await decideAuthorization(ctx.em, { userId: ctx.user.id, ...input });
    return { data: { id: authorization.id, status: authorization.status === 'refused' ? 'refused' : 'approved', redirect } };
  });
