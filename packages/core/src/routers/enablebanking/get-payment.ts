import { dataOf } from '@sandbank/schemas';
import { z } from 'zod';
import { readUserPayment } from '../../domain/enablebanking/payments.ts';
import { notFound } from '../../errors.ts';
import { protectedProcedure } from '../../trpc.ts';
import { EnablebankingPaymentSchema, toEnablebankingPayment } from './payment-request.schema.ts';

export const getPaymentProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/enablebanking/payments/{paymentId}',
      tags: ['integrations'],
      summary: 'An Enable Banking payment request as its consent page shows it',
      description:
        'What an app asks for through `POST /payments`: the application, the ASPSP, the amount and currency, the creditor’s name and IBAN, the remittance, the debtor account (if the app named one) and where the owner’s browser goes after the decision; once authorised, the section-19 payment it became. Another user’s is 404.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(z.strictObject({ paymentId: z.uuid() }))
  .output(dataOf(EnablebankingPaymentSchema))
  .query(async ({ ctx, input }) => {
    const request = await readUserPayment(ctx.em, { userId: ctx.user.id, id: input.paymentId });
    if (!request) throw notFound('Payment');
    return { data: toEnablebankingPayment(request) };
  });
