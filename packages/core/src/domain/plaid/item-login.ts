/**
 * An Item's login and the notifications it can be sent (docs/faces/plaid.md), for the Plaid face's
 * sandbox endpoints and the console alike. Plaid's own words for ITEM_LOGIN_REQUIRED and for each
 * webhook it can fire are kept here, once: the face answers with them, the worker delivers them.
 */
import type { EntityManager } from '@sandbank/db';
import { AppError, notFound } from '../../errors.ts';
import type { ItemState, PlaidItem } from './item.ts';
import { type ListedItem, readListedItem } from './items.ts';
import { recordPlaidWebhook } from './notifications.ts';
import { isLiveItem, updateItemStateIfChanged } from './queries.ts';

/** Plaid's error object for an Item whose login must be repaired: its `error` on `/item/get`, and its ITEM: ERROR webhook's. */
export const ITEM_LOGIN_REQUIRED = {
  error_type: 'ITEM_ERROR',
  error_code: 'ITEM_LOGIN_REQUIRED',
  error_message:
    "the login details of this item have changed (credentials, MFA, or required user action) and a user login is required to update this information. use Link's update mode to restore the item to a good state",
  display_message: 'the login details of this item have changed, please log in again',
} as const;

type Notification = { webhook_type: string; webhook_code: string } & Record<string, unknown>;

/** What `/sandbox/item/fire_webhook` (and the console) can fire: Plaid's body for each code (delivery adds item_id and environment). */
const FIREABLE = {
  SYNC_UPDATES_AVAILABLE: () => ({
    webhook_type: 'TRANSACTIONS',
    webhook_code: 'SYNC_UPDATES_AVAILABLE',
    initial_update_complete: true,
    historical_update_complete: true,
  }),
  DEFAULT_UPDATE: () => ({ webhook_type: 'TRANSACTIONS', webhook_code: 'DEFAULT_UPDATE', new_transactions: 0, error: null }),
  NEW_ACCOUNTS_AVAILABLE: () => ({ webhook_type: 'ITEM', webhook_code: 'NEW_ACCOUNTS_AVAILABLE', error: null }),
  ERROR: () => ({ webhook_type: 'ITEM', webhook_code: 'ERROR', error: { ...ITEM_LOGIN_REQUIRED } }),
} satisfies Record<string, () => Notification>;

export type FireableWebhookCode = keyof typeof FIREABLE;
export const FIREABLE_WEBHOOK_CODES = Object.keys(FIREABLE) as [FireableWebhookCode, ...FireableWebhookCode[]];

/** Whether Sandbank can fire the webhook `code`. */
export const isFireable = (code: string): code is FireableWebhookCode => Object.hasOwn(FIREABLE, code);

/** The `webhook_type` Plaid files `code` under. */
export const fireableWebhookType = (code: FireableWebhookCode): string => FIREABLE[code]().webhook_type;

/**
 * Moves the Item's login to `state` and, if that changed it, records the ITEM webhook that says so
 * (ERROR with ITEM_LOGIN_REQUIRED, or LOGIN_REPAIRED), in one transaction. Racing changes to the same
 * state record one webhook. `removed` if the Item was removed (before or meanwhile).
 */
export async function changeItemLogin(
  em: EntityManager,
  item: PlaidItem,
  state: ItemState,
): Promise<'changed' | 'unchanged' | 'removed'> {
  return em.transactional(async (tx) => {
    const changed = await updateItemStateIfChanged(tx, item.id, state);
    if (!changed) return (await isLiveItem(tx, item.id)) ? 'unchanged' : 'removed';
    await recordPlaidWebhook(
      tx,
      item,
      state === 'login_required'
        ? { webhook_type: 'ITEM', webhook_code: 'ERROR', error: { ...ITEM_LOGIN_REQUIRED } }
        : { webhook_type: 'ITEM', webhook_code: 'LOGIN_REPAIRED' },
    );
    return 'changed';
  });
}

/** Records the webhook `code` of the Item for delivery to its URL; false (nothing recorded) if it has none. */
export async function fireItemWebhook(em: EntityManager, item: PlaidItem, code: FireableWebhookCode): Promise<boolean> {
  if (!item.webhookUrl) return false;
  await recordPlaidWebhook(em, item, FIREABLE[code]());
  return true;
}

/** One of the user's Items an app holds an access token for: NOT_FOUND if none, removed or another user's; CONFLICT before the exchange. */
export async function linkedItem(em: EntityManager, params: { userId: string; id: string }): Promise<ListedItem> {
  const listed = await readListedItem(em, params);
  if (!listed || listed.item.removed) throw notFound('Plaid Item');
  if (!listed.exchanged) {
    throw new AppError('CONFLICT', 'The app has not exchanged this Item’s public token yet: there is no login to change');
  }
  return listed;
}
