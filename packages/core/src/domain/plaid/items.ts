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
import { userNow, WORLD_NOW_SQL } from '../clock/clock.ts';
import type { ItemState, PlaidItem } from './item.ts';
import { syncItemWebhook } from './notifications.ts';

/** Items per user, removed ones included: a bound on a new input path, far above any test's need. */
const MAX_ITEMS_PER_USER = 100;
const PUBLIC_TOKEN_TTL_MS = 30 * 60_000;

interface ItemRow {
  id: string;
  user_id: string;
  account_ids: string[];
  webhook_url: string | null;
  state: ItemState;
  created_at: Date | string;
  removed_at: Date | string | null;
}

const ITEM_COLUMNS = 'id, user_id, account_ids, webhook_url, state, created_at, removed_at';

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
  { userId, webhookUrl, secrets }: { userId: string; webhookUrl: string | null; secrets: Secrets },
): Promise<{ item: PlaidItem; publicToken: string }> {
  return em.transactional(async (tx) => {
    // Serialises a user's item creations, so the count below cannot be raced past the bound.
    await lockUser(tx, userId);
    const [count] = await tx.execute<{ n: string }[]>('select count(*) as n from plaid_items where user_id = ?', [userId]);
    if (Number(count?.n ?? 0) >= MAX_ITEMS_PER_USER) {
      throw new AppError('LIMIT_EXCEEDED', `At most ${MAX_ITEMS_PER_USER} Plaid Items per user`);
    }
    const now = await userNow(tx, userId);
    const publicToken = generateOpaqueToken('public-sandbox-');
    const [row] = await tx.execute<ItemRow[]>(
      `insert into plaid_items (id, user_id, public_token_hash, public_token_expires_at, account_ids, webhook_url, created_at)
       select ?, ?, ?, ?, coalesce(array_agg(a.id order by a.created_at, a.id), '{}'), ?, ?
         from accounts a where a.user_id = ? and a.status = 'open'
       returning ${ITEM_COLUMNS}`,
      [uuidv7(), userId, sha256(publicToken), new Date(now.getTime() + PUBLIC_TOKEN_TTL_MS), webhookUrl, now, userId],
    );
    if (!row) throw new Error('the item insert returned no row');
    const item = toItem(row);
    if (webhookUrl) await syncItemWebhook(tx, secrets, item, webhookUrl);
    return { item, publicToken };
  });
}

/** Exchanges a public token of this user once for an access token; null if unknown, used, expired or another user's. */
export async function exchangePublicToken(
  em: EntityManager,
  { userId, publicToken }: { userId: string; publicToken: string },
): Promise<{ item: PlaidItem; accessToken: string } | null> {
  const accessToken = generateOpaqueToken('access-sandbox-');
  const [row] = await em.execute<ItemRow[]>(
    `update plaid_items i set access_token_hash = ?
       from users u
      where i.user_id = u.id and u.id = ? and i.public_token_hash = ? and i.access_token_hash is null
        and i.removed_at is null and i.public_token_expires_at > ${WORLD_NOW_SQL}
      returning ${ITEM_COLUMNS.split(', ')
        .map((column) => `i.${column}`)
        .join(', ')}`,
    [sha256(accessToken), userId, sha256(publicToken)],
  );
  return row ? { item: toItem(row), accessToken } : null;
}

/** The Item of an access token, if it is this user's (removed ones included, so callers can say so). */
export async function findItem(
  em: EntityManager,
  { userId, accessToken }: { userId: string; accessToken: string },
): Promise<PlaidItem | null> {
  const [row] = await em.execute<ItemRow[]>(
    `select ${ITEM_COLUMNS} from plaid_items where access_token_hash = ? and user_id = ?`,
    [sha256(accessToken), userId],
  );
  return row ? toItem(row) : null;
}

/** Changes an Item that is not removed; returns it as it is after, or null if it was removed meanwhile. */
async function updateItem(em: EntityManager, itemId: string, set: string, params: unknown[]): Promise<PlaidItem | null> {
  const [row] = await em.execute<ItemRow[]>(
    `update plaid_items set ${set} where id = ? and removed_at is null returning ${ITEM_COLUMNS}`,
    [...params, itemId],
  );
  return row ? toItem(row) : null;
}

/** Removes the Item (its tokens stop working) and retires its webhook; null if it was removed already. */
export const removeItem = (em: EntityManager, secrets: Secrets, item: PlaidItem) =>
  em.transactional(async (tx) => {
    const removed = await updateItem(tx, item.id, 'removed_at = ?', [await userNow(tx, item.userId)]);
    if (removed) await syncItemWebhook(tx, secrets, removed, null);
    return removed;
  });

/** Sets (or clears, with null) the Item's webhook URL and its delivery row together. */
export const setItemWebhook = (em: EntityManager, secrets: Secrets, item: PlaidItem, webhookUrl: string | null) =>
  em.transactional(async (tx) => {
    const updated = await updateItem(tx, item.id, 'webhook_url = ?', [webhookUrl]);
    if (updated) await syncItemWebhook(tx, secrets, updated, webhookUrl);
    return updated;
  });

export const setItemState = (em: EntityManager, item: PlaidItem, state: ItemState) =>
  updateItem(em, item.id, 'state = ?', [state]);

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
  const rows = await em.execute<
    { id: string; name: string; currency: string; balance: string; held_amount: string; status: string }[]
  >('select id, name, currency, balance, held_amount, status from accounts where user_id = ? and id = any(?::uuid[])', [
    item.userId,
    `{${item.accountIds.join(',')}}`,
  ]);
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

type ListedRow = ItemRow & {
  exchanged: boolean;
  accounts: { id: string; name: string }[];
  webhook_id: string | null;
  total: string;
};

const LISTED_SQL = `select ${ITEM_COLUMNS.split(', ')
  .map((column) => `i.${column}`)
  .join(', ')}, i.access_token_hash is not null as exchanged, count(*) over () as total,
       coalesce((select json_agg(json_build_object('id', a.id, 'name', a.name) order by array_position(i.account_ids, a.id))
                   from accounts a where a.user_id = i.user_id and a.id = any(i.account_ids)), '[]'::json) as accounts,
       (select w.id from webhooks w where w.plaid_item_id = i.id and w.deleted_at is null) as webhook_id
  from plaid_items i`;

const toListed = (row: ListedRow): ListedItem => ({
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
  const rows = await em.execute<ListedRow[]>(
    `${LISTED_SQL} where i.user_id = ? order by i.created_at desc, i.id desc limit ? offset ?`,
    [userId, limit, offset],
  );
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && offset > 0) {
    const [count] = await em.execute<{ n: string }[]>('select count(*) as n from plaid_items where user_id = ?', [userId]);
    total = Number(count?.n ?? 0);
  }
  return { items: rows.map(toListed), total };
}

/** One of the user's Items as listed; null if there is none or it is another user's. */
export async function readListedItem(
  em: EntityManager,
  { userId, id }: { userId: string; id: string },
): Promise<ListedItem | null> {
  const [row] = await em.execute<ListedRow[]>(`${LISTED_SQL} where i.id = ? and i.user_id = ?`, [id, userId]);
  return row ? toListed(row) : null;
}
