import { listMeta, listOf, WebhookSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { ClientIdSchema } from '../../domain/webhooks/webhook-fields.ts';
import { listWebhooks } from '../../domain/webhooks/webhooks.ts';
import { toWebhook } from '../../mappers/webhook.ts';
import { protectedProcedure } from '../../trpc.ts';
import { PageInputSchema } from './webhooks.schema.ts';

export const listWebhooksProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/webhooks',
      tags: ['webhooks'],
      summary: 'List webhooks',
      description: 'Your webhooks, newest first; `clientId` narrows them to one client app.',
    },
  })
  .input(z.strictObject({ clientId: ClientIdSchema.optional(), ...PageInputSchema }))
  .output(listOf(WebhookSchema))
  .query(async ({ ctx, input }) => {
    const { items, total } = await listWebhooks(ctx.em, { userId: ctx.user.id, ...input });
    return {
      data: items.map((item) => toWebhook(item, ctx.deps.config.webhooks.secretOverlapSeconds)),
      meta: listMeta(input.page, input.limit, total),
    };
  });
