import { router } from '../../trpc.ts';
import { createWebhook } from './create-webhook.ts';
import { deleteWebhook } from './delete-webhook.ts';
import { listDeliveries } from './list-deliveries.ts';
import { listWebhooks } from './list-webhooks.ts';
import { redeliver } from './redeliver.ts';

export const webhooksRouter = router({
  create: createWebhook,
  list: listWebhooks,
  delete: deleteWebhook,
  listDeliveries,
  redeliver,
});
