import { router } from '../../trpc.ts';
import { createWebhookProcedure } from './create-webhook.ts';
import { deleteWebhookProcedure } from './delete-webhook.ts';
import { listDeliveriesProcedure } from './list-deliveries.ts';
import { listWebhooksProcedure } from './list-webhooks.ts';
import { redeliverProcedure } from './redeliver.ts';

export const webhooksRouter = router({
  createWebhook: createWebhookProcedure,
  deleteWebhook: deleteWebhookProcedure,
  listDeliveries: listDeliveriesProcedure,
  listWebhooks: listWebhooksProcedure,
  redeliver: redeliverProcedure,
});
