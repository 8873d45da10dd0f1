import { router } from '../../trpc.ts';
import { createPublicTokenProcedure } from './create-public-token.ts';
import { fireItemWebhookProcedure } from './fire-item-webhook.ts';
import { repairItemProcedure, resetItemLoginProcedure } from './item-login.ts';
import { listItemsProcedure } from './list-items.ts';
import { removeItemProcedure } from './remove-item.ts';

export const plaidRouter = router({
  createPublicToken: createPublicTokenProcedure,
  listItems: listItemsProcedure,
  removeItem: removeItemProcedure,
  resetItemLogin: resetItemLoginProcedure,
  repairItem: repairItemProcedure,
  fireItemWebhook: fireItemWebhookProcedure,
});
