import { dataOf, TimestampSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { readAuthorization } from '../../domain/enablebanking/authorizations.ts';
import { notFound } from '../../errors.ts';
import { protectedProcedure } from '../../trpc.ts';

const STATUSES = ['pending', 'approved', 'refused', 'used'] as const;

export const getAuthorizationProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/enablebanking/authorizations/{id}',
      tags: ['integrations'],
      summary: 'An Enable Banking authorization as its consent page shows it',
      description:
        'What an app asks for through `POST /auth`: the application, the ASPSP, until when (the world’s clock), whether balances and transactions, and where the owner’s browser goes after the decision. Another user’s authorization is 404.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(z.strictObject({ id: z.uuid() }))
  .output(
    dataOf(
      z
        .object({
          id: z.uuid(),
          application: z.object({ id: z.uuid(), name: z.string() }),
          aspsp: z.object({ name: z.string(), country: z.string() }),
          psuType: z.enum(['personal', 'business']),
          redirectUrl: z.string(),
          validUntil: TimestampSchema,
          access: z.object({ balances: z.boolean(), transactions: z.boolean() }),
          status: z.enum(STATUSES).meta({
            description:
              '`pending` until the owner decides; `approved` (its code not used yet), `refused`, or `used` (a session was made)',
          }),
          createdAt: TimestampSchema,
        })
        .meta({ id: 'EnablebankingAuthorization' }),
    ),
  )
  .query(async ({ ctx, input }) => {
    const authorization = await readAuthorization(ctx.em, { userId: ctx.user.id, id: input.id });
    if (!authorization) throw notFound('Authorization');
    return {
      data: {
        id: authorization.id,
        application: { id: authorization.applicationId, name: authorization.applicationName },
        aspsp: authorization.aspsp,
        psuType: authorization.psuType,
        redirectUrl: authorization.redirectUrl,
        validUntil: authorization.validUntil.toISOString(),
        access: authorization.access,
        status: authorization.status,
        createdAt: authorization.createdAt.toISOString(),
      },
    };
  });
