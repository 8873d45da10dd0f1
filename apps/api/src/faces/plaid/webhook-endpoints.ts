/**
 * The Plaid endpoints about an Item's state and its webhooks: `/item/webhook/update`,
 * `/transactions/refresh`, `/sandbox/item/reset_login` (ITEM_LOGIN_REQUIRED until repaired, and an
 * ITEM: ERROR webhook), Sandbank's `/sandbox/item/repair` (Link's update mode is Plaid's browser UI,
 * so this sandbox call stands for it; ITEM: LOGIN_REPAIRED), `/sandbox/item/fire_webhook` and
 * `/webhook_verification_key/get`. The worker delivers the webhooks (domain/plaid/notifications.ts).
 */
import {
  changeItemLogin,
  type Deps,
  FIREABLE_WEBHOOK_CODES,
  findVerificationKey,
  fireableWebhookType,
  fireItemWebhook,
  isFireable,
  type PlaidItem,
  setItemWebhook,
} from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import { checkWebhookUrl } from '@sandbank/webhooks';
import { type Endpoint, endpoint, plaidItem } from './endpoint.ts';
import { PlaidError, plaidErrors } from './errors.ts';
import { AccessTokenSchema, ItemWebhookUpdateSchema, SandboxFireWebhookSchema, WebhookVerificationKeyGetSchema } from './wire.ts';

/** A webhook URL our delivery policy accepts (the same as for our own webhooks), or INVALID_FIELD at `field`. */
export async function checkedWebhookUrl(deps: Deps, raw: string, field: string): Promise<string> {
  const check = await checkWebhookUrl(raw, { allowPrivate: deps.config.webhooks.allowPrivateUrls });
  if (!check.ok) throw plaidErrors.invalidField(`${field}: ${check.reason}`);
  return check.url.toString();
}

/** The Item's login changed to `state` (the domain records the ITEM webhook that says so), or ITEM_NOT_FOUND. */
async function changeLogin(em: EntityManager, item: PlaidItem, state: PlaidItem['state']): Promise<void> {
  if ((await changeItemLogin(em, item, state)) === 'removed') throw plaidErrors.itemNotFound();
}

export const webhookEndpoints: Record<string, Endpoint> = {
  '/item/webhook/update': endpoint(ItemWebhookUpdateSchema, 'any', async ({ deps, em, item, body }) => {
    const webhook = body.webhook ? await checkedWebhookUrl(deps, body.webhook, 'webhook') : null;
    const updated = await setItemWebhook(em, { secrets: deps.secrets, webhookLimit: deps.config.limits.webhooks }, item, webhook);
    if (!updated) throw plaidErrors.itemNotFound();
    return { item: plaidItem(updated) };
  }),

  // The world is always up to date: there is nothing to fetch, so a refresh only succeeds.
  '/transactions/refresh': endpoint(AccessTokenSchema, 'usable', async () => ({})),

  '/sandbox/item/reset_login': endpoint(AccessTokenSchema, 'any', async ({ em, item }) => {
    await changeLogin(em, item, 'login_required');
    return { reset_login: true };
  }),

  '/sandbox/item/repair': endpoint(AccessTokenSchema, 'any', async ({ em, item }) => {
    await changeLogin(em, item, 'good');
    return { repaired: true };
  }),

  '/sandbox/item/fire_webhook': endpoint(SandboxFireWebhookSchema, 'any', async ({ em, item, body }) => {
    const code = body.webhook_code;
    if (!isFireable(code)) throw plaidErrors.invalidField(`webhook_code must be one of ${FIREABLE_WEBHOOK_CODES.join(', ')}`);
    const type = fireableWebhookType(code);
    if (body.webhook_type !== undefined && body.webhook_type !== type) {
      throw plaidErrors.invalidField(`webhook_type must be ${type} for ${code}`);
    }
    if (!(await fireItemWebhook(em, item, code))) {
      throw plaidErrors.invalidField('the Item has no webhook: set one with /item/webhook/update');
    }
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
