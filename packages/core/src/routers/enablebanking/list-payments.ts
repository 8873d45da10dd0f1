import { listMeta, listOf, PageQuerySchema } from '@sandbank/schemas';
import { z } from 'zod';
import { listPayments } from '../../domain/enablebanking/payments.ts';
import { protectedProcedure } from '../../trpc.ts';
import { EnablebankingPaymentSchema, toEnablebankingPayment } from './payment-request.schema.ts';

export const listPaymentsProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/enablebanking/applications/{id}/payments',
      tags: ['integrations'],
      summary: 'List an Enable Banking application’s payments',
      description:
        'The payments the application asked for through the face (`POST /payments`) and has not deleted, newest first: Enable Banking’s status beside the section-19 payment each runs as. Another user’s application is 404.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(z.strictObject({ id: z.uuid(), ...PageQuerySchema }))
  .output(listOf(EnablebankingPaymentSchema))
  .query(async ({ ctx, input }) => {
    const page = await listPayments(ctx.em, {
      userId: ctx.user.id,
      applicationId: input.id,
      limit: input.limit,
      offset: (input.page - 1) * input.limit,
    });
    return { data: page.results.map(toEnablebankingPayment), meta: listMeta(input.page, input.limit, page.count) };
  });
