import { router } from '../../trpc.ts';
import { createWebhookProcedure } from './create-webhook.ts';
import { deleteWebhookProcedure } from './delete-webhook.ts';
import { getWebhookProcedure } from './get-webhook.ts';
import { listDeliveriesProcedure } from './list-deliveries.ts';
import { listWebhooksProcedure } from './list-webhooks.ts';
import { patchWebhookProcedure } from './patch-webhook.ts';
import { redeliverProcedure } from './redeliver.ts';
import { testWebhookProcedure } from './test-webhook.ts';

export const webhooksRouter = router({
  createWebhook: createWebhookProcedure,
  deleteWebhook: deleteWebhookProcedure,
  getWebhook: getWebhookProcedure,
  listDeliveries: listDeliveriesProcedure,
  listWebhooks: listWebhooksProcedure,
  patchWebhook: patchWebhookProcedure,
  redeliver: redeliverProcedure,
  testWebhook: testWebhookProcedure,
});
