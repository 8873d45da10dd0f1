import { dataOf, WebhookSchema } from '@sandbank/schemas';
import { z } from 'zod';
import {
  ClientIdSchema,
  WebhookEventsSchema,
  WebhookSecretSchema,
  WebhookUrlSchema,
} from '../../domain/webhooks/webhook-fields.ts';
import { registerWebhook } from '../../domain/webhooks/webhooks.ts';
import { toWebhook } from '../../mappers/webhook.ts';
import { protectedProcedure } from '../../trpc.ts';

export const createWebhookProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/webhooks',
      tags: ['webhooks'],
      summary: 'Register a webhook',
      description:
        'Subscribes a URL to event kinds of your accounts. Deliveries are signed with `secret` (Standard Webhooks scheme); the secret is stored encrypted and never returned. URLs that resolve to private, loopback or link-local addresses are refused unless the operator allows them.',
      successDescription: 'The new webhook',
    },
    successStatus: 201,
  })
  .input(
    z.strictObject({
      url: WebhookUrlSchema,
      secret: WebhookSecretSchema,
      events: WebhookEventsSchema,
      clientId: ClientIdSchema,
    }),
  )
  .output(dataOf(WebhookSchema))
  .mutation(async ({ ctx, input }) => {
    const webhook = await registerWebhook(ctx.em, ctx.deps, { userId: ctx.user.id, ...input });
    return { data: toWebhook(webhook, ctx.deps.config.webhooks.secretOverlapSeconds) };
  });
