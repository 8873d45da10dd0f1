import { dataOf, IdSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { decidePayment } from '../../domain/enablebanking/payments.ts';
import { protectedProcedure } from '../../trpc.ts';
import { EnablebankingPaymentSchema, toEnablebankingPayment } from './payment-request.schema.ts';

export const decidePaymentProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/enablebanking/payments/{paymentId}/decision',
      tags: ['integrations'],
      summary: 'Pay or cancel an Enable Banking payment request (the consent page)',
      description:
        'What the consent page behind `POST /payments`’s `url` sends. `approve: true` executes it as a section-19 payment from `accountId` (default: the account the app named, else your oldest open account in its currency; another currency’s or another user’s is 400) and answers the app’s `redirect_url` with its `state`; `false` cancels it (`error=access_denied`). Once only: a decided payment is 409 CONFLICT. Another user’s is 404.',
    },
    errorCodes: ['NOT_FOUND', 'CONFLICT', 'VALIDATION_ERROR'],
  })
  .input(z.strictObject({ paymentId: z.uuid(), approve: z.boolean(), accountId: IdSchema.optional() }))
  .output(
    dataOf(
      z.object({
        payment: EnablebankingPaymentSchema,
        redirect: z
          .url()
          .meta({ description: 'Where the owner’s browser goes: the app’s redirect_url with `state` (or `error`)' }),
      }),
    ).meta({ id: 'EnablebankingPaymentDecision' }),
  )
  .mutation(async ({ ctx, input }) => {
    const { request, redirect } = await decidePayment(ctx.em, {
      userId: ctx.user.id,
      id: input.paymentId,
      approve: input.approve,
      accountId: input.accountId,
    });
    return { data: { payment: toEnablebankingPayment(request), redirect } };
  });
