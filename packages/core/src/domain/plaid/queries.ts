/**
 * The SQL of the Plaid face's signing keys and notifications (docs/architecture.md, "The schema"):
 * typed rows and one named function per statement; `notifications.ts` keeps the rules.
 */
import type { EntityManager } from '@sandbank/db';
import { TRANSACTION_COLUMNS, type TransactionRow } from '../../mappers/transaction.ts';
import { WORLD_NOW_SQL } from '../clock/clock.ts';
import type { ItemState } from './item.ts';

export interface SigningKeyRow {
  kid: string;
  public_jwk: Record<string, unknown>;
  created_at: Date;
  /** Set only once the expiry has passed (wall time). */
  expired_at: Date | null;
}

/** A sealed private key and its public half, as stored. */
export interface NewSigningKey {
  kid: string;
  ciphertext: string;
  keyId: string;
  publicJwk: Record<string, unknown>;
}

/** The current (not retired) signing key, or undefined. */
export async function selectCurrentSigningKey(em: EntityManager): Promise<Omit<SigningKeyRow, 'expired_at'> | undefined> {
  const [row] = await em.execute<Omit<SigningKeyRow, 'expired_at'>[]>(
    'select kid, public_jwk, created_at from plaid_signing_keys where retired_at is null',
  );
  return row;
}

/** Stores a key as the current one unless there is one already (a racing process made it). */
export async function insertSigningKeyIfNone(em: EntityManager, key: NewSigningKey): Promise<void> {
  await em.execute(
    `insert into plaid_signing_keys (kid, private_key_ciphertext, private_key_key_id, public_jwk)
     values (?, ?, ?, ?::jsonb) on conflict do nothing`,
    [key.kid, key.ciphertext, key.keyId, JSON.stringify(key.publicJwk)],
  );
}

export async function insertSigningKey(tx: EntityManager, key: NewSigningKey): Promise<void> {
  await tx.execute(
    `insert into plaid_signing_keys (kid, private_key_ciphertext, private_key_key_id, public_jwk) values (?, ?, ?, ?::jsonb)`,
    [key.kid, key.ciphertext, key.keyId, JSON.stringify(key.publicJwk)],
  );
}

/** A key by its kid, retired and expired ones too. */
export async function selectSigningKey(em: EntityManager, kid: string): Promise<SigningKeyRow | undefined> {
  const [row] = await em.execute<SigningKeyRow[]>(
    `select kid, public_jwk, created_at, case when expired_at <= now() then expired_at end as expired_at
       from plaid_signing_keys where kid = ?`,
    [kid],
  );
  return row;
}

/** Serialises rotations until the transaction ends. */
export async function lockSigningKeys(tx: EntityManager): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtext('plaid_signing_keys'))`);
}

/** Retires the current key, expiring `overlapSeconds` from now; its kid and expiry, or undefined when there was none. */
export async function retireCurrentSigningKey(
  tx: EntityManager,
  overlapSeconds: number,
): Promise<{ kid: string; expired_at: Date } | undefined> {
  const [retired] = await tx.execute<{ kid: string; expired_at: Date }[]>(
    `update plaid_signing_keys set retired_at = now(), expired_at = now() + make_interval(secs => ?)
      where retired_at is null returning kid, expired_at`,
    [overlapSeconds],
  );
  return retired;
}

/** Retires the Item's delivery row (its webhook). */
export async function deleteItemWebhook(em: EntityManager, itemId: string): Promise<void> {
  await em.execute('update webhooks set deleted_at = now(), updated_at = now() where plaid_item_id = ? and deleted_at is null', [
    itemId,
  ]);
}

/** Points the Item's delivery row at `url`: a new row, or the old one revived. */
/** Whether the Item has a delivery row (a webhook) that is not retired. */
export async function hasLiveItemWebhook(em: EntityManager, itemId: string): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>('select id from webhooks where plaid_item_id = ? and deleted_at is null', [
    itemId,
  ]);
  return rows.length > 0;
}

export async function upsertItemWebhook(
  em: EntityManager,
  row: { id: string; userId: string; url: string; events: string; ciphertext: string; keyId: string; itemId: string },
): Promise<void> {
  await em.execute(
    `insert into webhooks (id, user_id, client_id, url, events, secret_ciphertext, secret_key_id, plaid_item_id)
     values (?, ?, 'plaid', ?, ?::text[], ?, ?, ?)
     on conflict (plaid_item_id) where plaid_item_id is not null
     do update set url = excluded.url, status = 'active', disabled_reason = null, deleted_at = null, updated_at = now()`,
    [row.id, row.userId, row.url, row.events, row.ciphertext, row.keyId, row.itemId],
  );
}

/** Records an event of the user's world (a Plaid notification) at `createdAt`. */
export async function insertEvent(
  em: EntityManager,
  event: { id: string; type: string; userId: string; payload: unknown; createdAt: Date },
): Promise<void> {
  await em.execute('insert into events (id, type, user_id, payload, created_at) values (?, ?, ?, ?::jsonb, ?)', [
    event.id,
    event.type,
    event.userId,
    JSON.stringify(event.payload),
    event.createdAt,
  ]);
}

export interface ItemRow {
  id: string;
  user_id: string;
  account_ids: string[];
  webhook_url: string | null;
  state: ItemState;
  created_at: Date | string;
  removed_at: Date | string | null;
}

const ITEM_COLUMNS = 'id, user_id, account_ids, webhook_url, state, created_at, removed_at';

/** How many Items the user has, removed ones included (the console lists them all). */
export async function countItems(tx: EntityManager, userId: string): Promise<number> {
  const [count] = await tx.execute<{ n: string }[]>('select count(*) as n from plaid_items where user_id = ?', [userId]);
  return Number(count?.n ?? 0);
}

/** How many Items the user has that are not removed. */
export async function countLiveItems(tx: EntityManager, userId: string): Promise<number> {
  const [count] = await tx.execute<{ n: string }[]>(
    'select count(*) as n from plaid_items where user_id = ? and removed_at is null',
    [userId],
  );
  return Number(count?.n ?? 0);
}

/** A new Item over the user's open accounts (oldest first). */
export async function insertItem(
  tx: EntityManager,
  item: {
    id: string;
    userId: string;
    publicTokenHash: string;
    publicTokenExpiresAt: Date;
    webhookUrl: string | null;
    createdAt: Date;
  },
): Promise<ItemRow | undefined> {
  const [row] = await tx.execute<ItemRow[]>(
    `insert into plaid_items (id, user_id, public_token_hash, public_token_expires_at, account_ids, webhook_url, created_at)
     select ?, ?, ?, ?, coalesce(array_agg(a.id order by a.created_at, a.id), '{}'), ?, ?
       from accounts a where a.user_id = ? and a.status = 'open'
     returning ${ITEM_COLUMNS}`,
    [item.id, item.userId, item.publicTokenHash, item.publicTokenExpiresAt, item.webhookUrl, item.createdAt, item.userId],
  );
  return row;
}

/**
 * Sets the access token of the user's Item whose public token this is, if that token is unused and
 * unexpired on the world's clock and the Item not removed; the Item, or undefined.
 */
export async function exchangeItemPublicToken(
  em: EntityManager,
  { userId, publicTokenHash, accessTokenHash }: { userId: string; publicTokenHash: string; accessTokenHash: string },
): Promise<ItemRow | undefined> {
  const [row] = await em.execute<ItemRow[]>(
    `update plaid_items i set access_token_hash = ?
       from users u
      where i.user_id = u.id and u.id = ? and i.public_token_hash = ? and i.access_token_hash is null
        and i.removed_at is null and i.public_token_expires_at > ${WORLD_NOW_SQL}
      returning ${ITEM_COLUMNS.split(', ')
        .map((column) => `i.${column}`)
        .join(', ')}`,
    [accessTokenHash, userId, publicTokenHash],
  );
  return row;
}

/** The user's Item with this access token (removed ones included), or undefined. */
export async function selectItemByAccessToken(
  em: EntityManager,
  userId: string,
  accessTokenHash: string,
): Promise<ItemRow | undefined> {
  const [row] = await em.execute<ItemRow[]>(
    `select ${ITEM_COLUMNS} from plaid_items where access_token_hash = ? and user_id = ?`,
    [accessTokenHash, userId],
  );
  return row;
}

/** Sets one column of an Item that is not removed; the Item after, or undefined if it was removed. */
export async function updateLiveItem(
  em: EntityManager,
  itemId: string,
  column: 'removed_at' | 'webhook_url',
  value: unknown,
): Promise<ItemRow | undefined> {
  const [row] = await em.execute<ItemRow[]>(
    `update plaid_items set ${column} = ? where id = ? and removed_at is null returning ${ITEM_COLUMNS}`,
    [value, itemId],
  );
  return row;
}

/**
 * Moves a live Item to `state` if it is not there already: of two racing changes to the same state the
 * second waits on the first's row lock, sees the new state and changes nothing (so one webhook says so).
 */
export async function updateItemStateIfChanged(
  em: EntityManager,
  itemId: string,
  state: ItemState,
): Promise<ItemRow | undefined> {
  const [row] = await em.execute<ItemRow[]>(
    `update plaid_items set state = ? where id = ? and removed_at is null and state <> ? returning ${ITEM_COLUMNS}`,
    [state, itemId, state],
  );
  return row;
}

/** Whether the Item exists and is not removed. */
export async function isLiveItem(em: EntityManager, itemId: string): Promise<boolean> {
  const rows = await em.execute<unknown[]>('select 1 from plaid_items where id = ? and removed_at is null', [itemId]);
  return rows.length > 0;
}

export interface ItemAccountRow {
  id: string;
  name: string;
  currency: string;
  balance: string;
  held_amount: string;
  status: string;
}

/** The user's accounts among `accountIds` (in no order). */
export function selectItemAccounts(em: EntityManager, userId: string, accountIds: string[]): Promise<ItemAccountRow[]> {
  return em.execute<ItemAccountRow[]>(
    'select id, name, currency, balance, held_amount, status from accounts where user_id = ? and id = any(?::uuid[])',
    [userId, `{${accountIds.join(',')}}`],
  );
}

/** The user's e-mail, or undefined when the user is gone. */
export async function selectUserEmail(em: EntityManager, userId: string): Promise<string | undefined> {
  const [row] = await em.execute<{ email: string }[]>('select email from users where id = ?', [userId]);
  return row?.email;
}

/** Which of these transactions of the user posted after being pending first. */
export async function selectPostedFromPending(em: EntityManager, userId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    'select id from transactions where user_id = ? and id = any(?::uuid[]) and posted_from_pending',
    [userId, `{${ids.join(',')}}`],
  );
  return rows.map((row) => row.id);
}

/** The window `/transactions/get` reads: the user's accounts, [from, before) on the date, voided ones left out. */
export interface ItemTransactionsWindow {
  userId: string;
  accountIds: readonly string[];
  from: Date;
  before: Date;
}

const windowWhere = (window: ItemTransactionsWindow) => ({
  where: `user_id = ? and account_id = any(?::uuid[]) and status <> 'voided' and date >= ? and date < ?`,
  params: [window.userId, `{${window.accountIds.join(',')}}`, window.from.toISOString(), window.before.toISOString()],
});

/** A page of the window's transactions, newest first. */
export function selectWindowTransactions(
  em: EntityManager,
  window: ItemTransactionsWindow,
  { count, offset }: { count: number; offset: number },
): Promise<(TransactionRow & { posted_from_pending: boolean })[]> {
  const { where, params } = windowWhere(window);
  return em.execute<(TransactionRow & { posted_from_pending: boolean })[]>(
    `select ${TRANSACTION_COLUMNS}, posted_from_pending from transactions where ${where} order by date desc, id desc limit ? offset ?`,
    [...params, count, offset],
  );
}

export async function countWindowTransactions(em: EntityManager, window: ItemTransactionsWindow): Promise<number> {
  const { where, params } = windowWhere(window);
  const [count] = await em.execute<{ n: string }[]>(`select count(*) as n from transactions where ${where}`, params);
  return Number(count?.n ?? 0);
}

/** An Item as the console lists it: with whether it was exchanged, its accounts' names and its webhook. */
export type ListedItemRow = ItemRow & {
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

/** A page of the user's Items, newest first; each row carries the total. */
export function selectListedItems(
  em: EntityManager,
  { userId, limit, offset }: { userId: string; limit: number; offset: number },
): Promise<ListedItemRow[]> {
  return em.execute<ListedItemRow[]>(`${LISTED_SQL} where i.user_id = ? order by i.created_at desc, i.id desc limit ? offset ?`, [
    userId,
    limit,
    offset,
  ]);
}

export async function selectListedItem(em: EntityManager, userId: string, id: string): Promise<ListedItemRow | undefined> {
  const [row] = await em.execute<ListedItemRow[]>(`${LISTED_SQL} where i.id = ? and i.user_id = ?`, [id, userId]);
  return row;
}
