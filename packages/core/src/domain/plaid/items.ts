/**
 * Plaid Items (docs/faces/plaid.md): the link between an app and the accounts its user had open when the Item
 * was created. Tokens are 256 random bits shown once and stored only as SHA-256 (like API keys): the
 * public token is exchanged once, within 30 minutes of the world's clock, by one conditional UPDATE
 * (of two racing exchanges, one wins). Everything else is the world's: balances, transactions and
 * time are read through the domain, never kept here.
 */
import type { Secrets } from '@sandbank/config';
import type { EntityManager } from '@sandbank/db';
import { AppError } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { lockUser } from '../auth/queries.ts';
import { generateOpaqueToken, sha256 } from '../auth/tokens.ts';
import { userNow } from '../clock/clock.ts';
import type { PlaidItem } from './item.ts';
import { syncItemWebhook } from './notifications.ts';
import {
  countItems,
  countLiveItems,
  deleteItemWebhook,
  exchangeItemPublicToken,
  type ItemRow,
  insertItem,
  type ListedItemRow,
  selectItemAccounts,
  selectItemByAccessToken,
  selectListedItem,
  selectListedItems,
  selectUserEmail,
  updateLiveItem,
} from './queries.ts';

/** Items per user that are not removed: a bound on a new input path, far above any test's need. */
const MAX_ITEMS_PER_USER = 100;
/** Items per user, removed ones included: what one user's rows may grow to. */
const MAX_ITEMS_EVER_PER_USER = 1_000;
const PUBLIC_TOKEN_TTL_MS = 30 * 60_000;

const toItem = (row: ItemRow): PlaidItem => ({
  id: row.id,
  userId: row.user_id,
  accountIds: row.account_ids,
  webhookUrl: row.webhook_url,
  state: row.state,
  createdAt: new Date(row.created_at),
  removed: row.removed_at !== null,
});

/** A new Item over the user's open accounts and its public token (`/sandbox/public_token/create`). */
export async function createItem(
  em: EntityManager,
  {
    userId,
    webhookUrl,
    secrets,
    webhookLimit,
  }: { userId: string; webhookUrl: string | null; secrets: Secrets; webhookLimit: number },
): Promise<{ item: PlaidItem; publicToken: string }> {
  return em.transactional(async (tx) => {
    // Serialises a user's item creations, so the count below cannot be raced past the bound.
    await lockUser(tx, userId);
    if ((await countLiveItems(tx, userId)) >= MAX_ITEMS_PER_USER) {
      throw new AppError('LIMIT_EXCEEDED', `At most ${MAX_ITEMS_PER_USER} Plaid Items per user`);
    }
    // Removed Items stay listed (and their rows kept): a bound on them too, far above the live one.
    if ((await countItems(tx, userId)) >= MAX_ITEMS_EVER_PER_USER) {
      throw new AppError('LIMIT_EXCEEDED', `At most ${MAX_ITEMS_EVER_PER_USER} Plaid Items per user, removed ones included`);
    }
    const now = await userNow(tx, userId);
    const publicToken = generateOpaqueToken('public-sandbox-');
    const row = await insertItem(tx, {
      id: uuidv7(),
      userId,
      publicTokenHash: sha256(publicToken),
      publicTokenExpiresAt: new Date(now.getTime() + PUBLIC_TOKEN_TTL_MS),
      webhookUrl,
      createdAt: now,
    });
    if (!row) throw new Error('the item insert returned no row');
    const item = toItem(row);
    if (webhookUrl) await syncItemWebhook(tx, { secrets, webhookLimit }, item, webhookUrl);
    return { item, publicToken };
  });
}

/** Exchanges a public token of this user once for an access token; null if unknown, used, expired or another user's. */
export async function exchangePublicToken(
  em: EntityManager,
  { userId, publicToken }: { userId: string; publicToken: string },
): Promise<{ item: PlaidItem; accessToken: string } | null> {
  const accessToken = generateOpaqueToken('access-sandbox-');
  const row = await exchangeItemPublicToken(em, {
    userId,
    publicTokenHash: sha256(publicToken),
    accessTokenHash: sha256(accessToken),
  });
  return row ? { item: toItem(row), accessToken } : null;
}

/** The Item of an access token, if it is this user's (removed ones included, so callers can say so). */
export async function findItem(
  em: EntityManager,
  { userId, accessToken }: { userId: string; accessToken: string },
): Promise<PlaidItem | null> {
  const row = await selectItemByAccessToken(em, userId, sha256(accessToken));
  return row ? toItem(row) : null;
}

/** Changes an Item that is not removed; returns it as it is after, or null if it was removed meanwhile. */
async function updateItem(
  em: EntityManager,
  itemId: string,
  change: Parameters<typeof updateLiveItem>[2],
): Promise<PlaidItem | null> {
  const row = await updateLiveItem(em, itemId, change);
  return row ? toItem(row) : null;
}

/** Removes the Item (its tokens stop working) and retires its webhook; null if it was removed already. */
export const removeItem = (em: EntityManager, item: PlaidItem) =>
  em.transactional(async (tx) => {
    const removed = await updateItem(tx, item.id, { removed_at: await userNow(tx, item.userId) });
    if (removed) await deleteItemWebhook(tx, removed.id);
    return removed;
  });

/** Sets (or clears, with null) the Item's webhook URL and its delivery row together (a new one within LIMIT_WEBHOOKS). */
export const setItemWebhook = (
  em: EntityManager,
  deps: { secrets: Secrets; webhookLimit: number },
  item: PlaidItem,
  webhookUrl: string | null,
) =>
  em.transactional(async (tx) => {
    // The user's row first, as every path that counts the user's webhooks takes it (checkUserLimit).
    await lockUser(tx, item.userId);
    const updated = await updateItem(tx, item.id, { webhook_url: webhookUrl });
    if (updated) await syncItemWebhook(tx, deps, updated, webhookUrl);
    return updated;
  });

export interface ItemAccount {
  id: string;
  name: string;
  currency: string;
  /** Minor units. */
  balance: number;
  availableBalance: number;
  open: boolean;
}

/** The Item's accounts as they are now, in the Item's order (closed ones included, as a bank shows them). */
export async function readItemAccounts(em: EntityManager, item: PlaidItem): Promise<ItemAccount[]> {
  if (item.accountIds.length === 0) return [];
  const rows = await selectItemAccounts(em, item.userId, item.accountIds);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return item.accountIds.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return []; // removed by a sandbox reset
    const balance = Number(row.balance);
    return [
      {
        id,
        name: row.name,
        currency: row.currency,
        balance,
        availableBalance: balance - Number(row.held_amount),
        open: row.status === 'open',
      },
    ];
  });
}

/** The Item's owner as `/identity/get` shows them: the world's user (a user has an e-mail and no name or address). */
export async function readItemOwner(em: EntityManager, item: PlaidItem): Promise<{ email: string } | null> {
  const email = await selectUserEmail(em, item.userId);
  return email === undefined ? null : { email };
}

/** An Item as the console lists it: the Item, whether its public token was exchanged, and its accounts' names. */
export interface ListedItem {
  item: PlaidItem;
  exchanged: boolean;
  removedAt: Date | null;
  /** The Item's accounts in its order, closed ones included; an account a reset removed is left out. */
  accounts: { id: string; name: string }[];
  /** The `webhooks` row its Plaid webhooks are delivered through (its deliveries), while it has a URL. */
  webhookId: string | null;
}

const toListed = (row: ListedItemRow): ListedItem => ({
  item: toItem(row),
  exchanged: row.exchanged,
  removedAt: row.removed_at === null ? null : new Date(row.removed_at),
  accounts: row.accounts,
  webhookId: row.webhook_id,
});

/** The user's Items, removed ones included (as they stand), newest first, one page. */
export async function listItems(
  em: EntityManager,
  { userId, limit, offset }: { userId: string; limit: number; offset: number },
): Promise<{ items: ListedItem[]; total: number }> {
  const rows = await selectListedItems(em, { userId, limit, offset });
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && offset > 0) {
    total = await countItems(em, userId);
  }
  return { items: rows.map(toListed), total };
}

/** One of the user's Items as listed; null if there is none or it is another user's. */
export async function readListedItem(
  em: EntityManager,
  { userId, id }: { userId: string; id: string },
): Promise<ListedItem | null> {
  const row = await selectListedItem(em, userId, id);
  return row ? toListed(row) : null;
}
