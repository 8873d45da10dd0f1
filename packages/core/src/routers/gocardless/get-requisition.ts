import { dataOf, IdSchema, TimestampSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { readRequisition } from '../../domain/gocardless/requisitions.ts';
import { notFound } from '../../errors.ts';
import { protectedProcedure } from '../../trpc.ts';

export const getRequisitionProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/gocardless/requisitions/{id}',
      tags: ['integrations'],
      summary: 'A GoCardless requisition as its consent page shows it',
      description:
        'What an app asks for through the GoCardless face: the institution, the end-user agreement’s scopes and days, and where the owner’s browser goes after the decision. Another user’s requisition is 404.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(z.strictObject({ id: IdSchema }))
  .output(
    dataOf(
      z.object({
        id: IdSchema,
        institutionId: z.string(),
        status: z.enum(['CR', 'LN', 'RJ', 'EX']),
        reference: z.string(),
        redirect: z.string(),
        maxHistoricalDays: z.number().int(),
        accessValidForDays: z.number().int(),
        accessScope: z.array(z.enum(['balances', 'details', 'transactions'])),
        createdAt: TimestampSchema,
      }),
    ).meta({ id: 'GocardlessRequisition' }),
  )
  .query(async ({ ctx, input }) => {
    const requisition = await readRequisition(ctx.em, { userId: ctx.user.id, id: input.id });
    if (!requisition) throw notFound('Requisition');
    const { agreement } = requisition;
    return {
      data: {
        id: requisition.id,
        institutionId: requisition.institutionId,
        status: requisition.status,
        reference: requisition.reference,
        redirect: requisition.redirect,
        maxHistoricalDays: agreement.maxHistoricalDays,
        accessValidForDays: agreement.accessValidForDays,
        accessScope: agreement.accessScope,
        createdAt: requisition.createdAt.toISOString(),
      },
    };
  });
