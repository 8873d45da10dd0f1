/**
 * The Plaid endpoints about an Item's state and its webhooks: `/item/webhook/update`,
 * `/transactions/refresh`, `/sandbox/item/reset_login` (ITEM_LOGIN_REQUIRED until repaired, and an
 * ITEM: ERROR webhook), Sandbank's `/sandbox/item/repair` (Link's update mode is Plaid's browser UI,
 * so this sandbox call stands for it; ITEM: LOGIN_REPAIRED), `/sandbox/item/fire_webhook` and
 * `/webhook_verification_key/get`. The worker delivers the webhooks (domain/plaid/notifications.ts).
 */
import { type Deps, findVerificationKey, type PlaidItem, recordPlaidWebhook, setItemState, setItemWebhook } from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import { checkWebhookUrl } from '@sandbank/webhooks';
import { type Endpoint, endpoint, plaidItem } from './endpoint.ts';
import { loginRequiredBody, PlaidError, plaidErrors } from './errors.ts';
import {
  AccessTokenSchema,
  ItemWebhookUpdateSchema,
  SandboxFireWebhookSchema,
  WebhookVerificationKeyGetSchema,
} from './schemas.ts';

/** A webhook URL our delivery policy accepts (the same as for our own webhooks), or INVALID_FIELD at `field`. */
export async function checkedWebhookUrl(deps: Deps, raw: string, field: string): Promise<string> {
  const check = await checkWebhookUrl(raw, { allowPrivate: deps.config.webhooks.allowPrivateUrls });
  if (!check.ok) throw plaidErrors.invalidField(`${field}: ${check.reason}`);
  return check.url.toString();
}

/** What `/sandbox/item/fire_webhook` can fire: Plaid's body for each code (item_id and environment are added on delivery). */
const FIREABLE: Record<string, () => { webhook_type: string; webhook_code: string } & Record<string, unknown>> = {
  SYNC_UPDATES_AVAILABLE: () => ({
    webhook_type: 'TRANSACTIONS',
    webhook_code: 'SYNC_UPDATES_AVAILABLE',
    initial_update_complete: true,
    historical_update_complete: true,
  }),
  DEFAULT_UPDATE: () => ({ webhook_type: 'TRANSACTIONS', webhook_code: 'DEFAULT_UPDATE', new_transactions: 0, error: null }),
  NEW_ACCOUNTS_AVAILABLE: () => ({ webhook_type: 'ITEM', webhook_code: 'NEW_ACCOUNTS_AVAILABLE', error: null }),
  ERROR: () => ({ webhook_type: 'ITEM', webhook_code: 'ERROR', error: loginRequiredBody() }),
};

/** Moves the Item to `state` and records the ITEM webhook that says so, in one transaction. */
async function changeState(em: EntityManager, item: PlaidItem, state: PlaidItem['state'], code: 'ERROR' | 'LOGIN_REPAIRED') {
  return em.transactional(async (tx) => {
    const updated = await setItemState(tx, item, state);
    if (!updated) throw plaidErrors.itemNotFound();
    if (item.state !== state) {
      await recordPlaidWebhook(tx, item, {
        webhook_type: 'ITEM',
        webhook_code: code,
        ...(code === 'ERROR' ? { error: loginRequiredBody() } : {}),
      });
    }
  });
}

export const webhookEndpoints: Record<string, Endpoint> = {
  '/item/webhook/update': endpoint(ItemWebhookUpdateSchema, 'any', async ({ deps, em, item, body }) => {
    const webhook = body.webhook ? await checkedWebhookUrl(deps, body.webhook, 'webhook') : null;
    const updated = await setItemWebhook(em, deps.secrets, item, webhook);
    if (!updated) throw plaidErrors.itemNotFound();
    return { item: plaidItem(updated) };
  }),

  // The world is always up to date: there is nothing to fetch, so a refresh only succeeds.
  '/transactions/refresh': endpoint(AccessTokenSchema, 'usable', async () => ({})),

  '/sandbox/item/reset_login': endpoint(AccessTokenSchema, 'any', async ({ em, item }) => {
    await changeState(em, item, 'login_required', 'ERROR');
    return { reset_login: true };
  }),

  '/sandbox/item/repair': endpoint(AccessTokenSchema, 'any', async ({ em, item }) => {
    await changeState(em, item, 'good', 'LOGIN_REPAIRED');
    return { repaired: true };
  }),

  '/sandbox/item/fire_webhook': endpoint(SandboxFireWebhookSchema, 'any', async ({ em, item, body }) => {
    const make = FIREABLE[body.webhook_code];
    if (!make) throw plaidErrors.invalidField(`webhook_code must be one of ${Object.keys(FIREABLE).join(', ')}`);
    const notification = make();
    if (body.webhook_type !== undefined && body.webhook_type !== notification.webhook_type) {
      throw plaidErrors.invalidField(`webhook_type must be ${notification.webhook_type} for ${body.webhook_code}`);
    }
    if (!item.webhookUrl) throw plaidErrors.invalidField('the Item has no webhook: set one with /item/webhook/update');
    await recordPlaidWebhook(em, item, notification);
    return { webhook_fired: true };
  }),

  '/webhook_verification_key/get': endpoint(WebhookVerificationKeyGetSchema, undefined, async ({ em, body }) => {
    const key = await findVerificationKey(em, body.key_id);
    if (!key) {
      throw new PlaidError(
        400,
        'INVALID_INPUT',
        'INVALID_WEBHOOK_VERIFICATION_KEY_ID',
        'invalid key_id provided: take it from the JWT header',
      );
    }
    const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
    return {
      key: {
        ...key.publicJwk,
        alg: 'ES256',
        kid: key.kid,
        use: 'sig',
        created_at: seconds(key.createdAt),
        expired_at: key.expiredAt ? seconds(key.expiredAt) : null,
      },
    };
  }),
};
