/**
 * The Plaid endpoints about an Item's state and its webhook: `/item/webhook/update`,
 * `/transactions/refresh`, `/sandbox/item/reset_login` (ITEM_LOGIN_REQUIRED until repaired) and
 * Sandbank's `/sandbox/item/repair` (Link's update mode is Plaid's browser UI, so this sandbox call
 * stands for it).
 */
import { setItemState, setItemWebhook } from '@sandbank/core';
import { type Endpoint, endpoint, plaidItem } from './endpoint.ts';
import { plaidErrors } from './errors.ts';
import { AccessTokenSchema, ItemWebhookUpdateSchema } from './schemas.ts';

export const webhookEndpoints: Record<string, Endpoint> = {
  '/item/webhook/update': endpoint(ItemWebhookUpdateSchema, 'any', async ({ em, item, body }) => {
    const webhook = body.webhook ?? null;
    if (webhook !== null && webhook !== '' && !URL.canParse(webhook)) throw plaidErrors.invalidField('webhook must be a URL');
    const updated = await setItemWebhook(em, item, webhook || null);
    if (!updated) throw plaidErrors.itemNotFound();
    return { item: plaidItem(updated) };
  }),

  // The world is always up to date: there is nothing to fetch, so a refresh only succeeds.
  '/transactions/refresh': endpoint(AccessTokenSchema, 'usable', async () => ({})),

  '/sandbox/item/reset_login': endpoint(AccessTokenSchema, 'any', async ({ em, item }) => {
    if (!(await setItemState(em, item, 'login_required'))) throw plaidErrors.itemNotFound();
    return { reset_login: true };
  }),

  '/sandbox/item/repair': endpoint(AccessTokenSchema, 'any', async ({ em, item }) => {
    if (!(await setItemState(em, item, 'good'))) throw plaidErrors.itemNotFound();
    return { repaired: true };
  }),
};
