import { dataOf, IdSchema, WebhookFaultsSchema, WebhookSchema, WebhookStatusSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { WebhookEventsSchema, WebhookSecretSchema, WebhookUrlSchema } from '../../domain/webhooks/webhook-fields.ts';
import { patchWebhook } from '../../domain/webhooks/webhooks.ts';
import { toWebhook } from '../../mappers/webhook.ts';
import { protectedProcedure } from '../../trpc.ts';

export const patchWebhookProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/v1/webhooks/{id}',
      tags: ['webhooks'],
      summary: 'Change a webhook',
      description:
        'Any of url (checked like a new one), events, status (active re-enables a disabled webhook) and secret. A new secret rotates the Standard Webhooks way: for WEBHOOK_SECRET_OVERLAP_HOURS (default 24) deliveries carry both signatures (`v1,<new> v1,<old>`), so a receiver can switch without dropping events. `faults` (the webhook lab, off by default; null turns them off) makes deliveries fail, lag, repeat, arrive out of order or carry a stale timestamp, on purpose and repeatably for a seed: see docs/guides/webhooks.md.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(
    z.strictObject({
      id: IdSchema,
      url: WebhookUrlSchema.optional(),
      events: WebhookEventsSchema.optional(),
      status: WebhookStatusSchema.optional(),
      secret: WebhookSecretSchema.optional(),
      faults: WebhookFaultsSchema.nullable().optional(),
    }),
  )
  .output(dataOf(WebhookSchema))
  .mutation(async ({ ctx, input }) => {
    const { id, ...changes } = input;
    const webhook = await patchWebhook(ctx.em, ctx.deps, { userId: ctx.user.id, webhookId: id, ...changes });
    return { data: toWebhook(webhook, ctx.deps.config.webhooks.secretOverlapSeconds) };
  });
