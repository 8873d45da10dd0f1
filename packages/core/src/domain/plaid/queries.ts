/**
 * The SQL of the Plaid face's signing keys, Items and notifications (docs/architecture.md, "The
 * schema"): one named function per statement, written with Kysely over the generated tables
 * (`kysely(em)`); `notifications.ts` keeps the rules.
 */
import { type EntityManager, kysely, type Row } from '@sandbank/db';
import type { TransactionStatus } from '@sandbank/schemas';
import { type ExpressionBuilder, type NotNull, sql } from 'kysely';
import type { TransactionRow } from '../../mappers/transaction.ts';
import { worldNowOf } from '../clock/queries.ts';
import type { ItemState } from './item.ts';

const NOW = sql<string>`now()`;

export type SigningKeyRow = Pick<Row<'plaid_signing_keys'>, 'kid' | 'created_at'> & {
  public_jwk: Record<string, unknown>;
  /** Set only once the expiry has passed (wall time). */
  expired_at: string | null;
};

/** A sealed private key and its public half, as stored. */
export interface NewSigningKey {
  kid: string;
  ciphertext: string;
  keyId: string;
  publicJwk: Record<string, unknown>;
}

const publicJwk = (eb: ExpressionBuilder<{ plaid_signing_keys: Row<'plaid_signing_keys'> }, 'plaid_signing_keys'>) =>
  eb.ref('public_jwk').$castTo<Record<string, unknown>>().as('public_jwk');

/** The current (not retired) signing key, or undefined. */
export async function selectCurrentSigningKey(em: EntityManager): Promise<Omit<SigningKeyRow, 'expired_at'> | undefined> {
  return kysely(em)
    .selectFrom('plaid_signing_keys')
    .select((eb) => ['kid', publicJwk(eb), 'created_at'])
    .where('retired_at', 'is', null)
    .executeTakeFirst();
}

const signingKeyValues = (key: NewSigningKey) => ({
  kid: key.kid,
  private_key_ciphertext: key.ciphertext,
  private_key_key_id: key.keyId,
  public_jwk: sql<string>`${JSON.stringify(key.publicJwk)}::jsonb`,
});

/** Stores a key as the current one unless there is one already (a racing process made it). */
export async function insertSigningKeyIfNone(em: EntityManager, key: NewSigningKey): Promise<void> {
  await kysely(em)
    .insertInto('plaid_signing_keys')
    .values(signingKeyValues(key))
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

export async function insertSigningKey(tx: EntityManager, key: NewSigningKey): Promise<void> {
  await kysely(tx).insertInto('plaid_signing_keys').values(signingKeyValues(key)).execute();
}

/** A key by its kid, retired and expired ones too. */
export async function selectSigningKey(em: EntityManager, kid: string): Promise<SigningKeyRow | undefined> {
  return kysely(em)
    .selectFrom('plaid_signing_keys')
    .select((eb) => [
      'kid',
      publicJwk(eb),
      'created_at',
      sql<string | null>`case when expired_at <= now() then expired_at end`.as('expired_at'),
    ])
    .where('kid', '=', kid)
    .executeTakeFirst();
}

/** Serialises rotations until the transaction ends. */
export async function lockSigningKeys(tx: EntityManager): Promise<void> {
  await kysely(tx).selectNoFrom(sql`pg_advisory_xact_lock(hashtext('plaid_signing_keys'))`.as('locked')).execute();
}

/** Retires the current key, expiring `overlapSeconds` from now; its kid and expiry, or undefined when there was none. */
export async function retireCurrentSigningKey(
  tx: EntityManager,
  overlapSeconds: number,
): Promise<{ kid: string; expired_at: string } | undefined> {
  return kysely(tx)
    .updateTable('plaid_signing_keys')
    .set({ retired_at: NOW, expired_at: sql<string>`now() + make_interval(secs => ${overlapSeconds}::double precision)` })
    .where('retired_at', 'is', null)
    .returning(['kid', 'expired_at'])
    .$narrowType<{ expired_at: NotNull }>()
    .executeTakeFirst();
}

/** Retires the Item's delivery row (its webhook). */
export async function deleteItemWebhook(em: EntityManager, itemId: string): Promise<void> {
  await kysely(em)
    .updateTable('webhooks')
    .set({ deleted_at: NOW, updated_at: NOW })
    .where('plaid_item_id', '=', itemId)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Whether the Item has a delivery row (a webhook) that is not retired. */
export async function hasLiveItemWebhook(em: EntityManager, itemId: string): Promise<boolean> {
  const rows = await kysely(em)
    .selectFrom('webhooks')
    .select('id')
    .where('plaid_item_id', '=', itemId)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.length > 0;
}

/** Points the Item's delivery row at `url`: a new row, or the old one revived. */
export async function upsertItemWebhook(
  em: EntityManager,
  row: { id: string; userId: string; url: string; events: string; ciphertext: string; keyId: string; itemId: string },
): Promise<void> {
  await kysely(em)
    .insertInto('webhooks')
    .values({
      id: row.id,
      user_id: row.userId,
      client_id: 'plaid',
      url: row.url,
      events: sql<string[]>`${row.events}::text[]`,
      secret_ciphertext: row.ciphertext,
      secret_key_id: row.keyId,
      plaid_item_id: row.itemId,
    })
    .onConflict((conflict) =>
      conflict
        .column('plaid_item_id')
        // A literal: PostgreSQL infers the partial unique index from the predicate's text, not from a parameter.
        .where(sql<boolean>`plaid_item_id is not null`)
        .doUpdateSet((eb) => ({
          url: eb.ref('excluded.url'),
          status: 'active',
          disabled_reason: null,
          deleted_at: null,
          updated_at: NOW,
        })),
    )
    .execute();
}

/** Records an event of the user's world (a Plaid notification) at `createdAt`. */
export async function insertEvent(
  em: EntityManager,
  event: { id: string; type: string; userId: string; payload: unknown; createdAt: Date },
): Promise<void> {
  await kysely(em)
    .insertInto('events')
    .values({
      id: event.id,
      type: event.type,
      user_id: event.userId,
      payload: sql<string>`${JSON.stringify(event.payload)}::jsonb`,
      created_at: event.createdAt.toISOString(),
    })
    .execute();
}

export type ItemRow = Pick<Row<'plaid_items'>, 'id' | 'user_id' | 'account_ids' | 'webhook_url' | 'created_at' | 'removed_at'> & {
  state: ItemState;
};

/** ItemRow's columns (the state as the domain names it), of `plaid_items` unaliased, and aliased `i`. */
const ITEM_COLUMNS = [
  'id',
  'user_id',
  'account_ids',
  'webhook_url',
  sql<ItemState>`state`.as('state'),
  'created_at',
  'removed_at',
] as const;
const I_ITEM_COLUMNS = [
  'i.id',
  'i.user_id',
  'i.account_ids',
  'i.webhook_url',
  sql<ItemState>`i.state`.as('state'),
  'i.created_at',
  'i.removed_at',
] as const;

/** How many Items the user has, removed ones included (the console lists them all). */
export async function countItems(tx: EntityManager, userId: string): Promise<number> {
  const count = await kysely(tx)
    .selectFrom('plaid_items')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(count?.n ?? 0);
}

/** How many Items the user has that are not removed. */
export async function countLiveItems(tx: EntityManager, userId: string): Promise<number> {
  const count = await kysely(tx)
    .selectFrom('plaid_items')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
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
  const db = kysely(tx);
  return db
    .insertInto('plaid_items')
    .columns(['id', 'user_id', 'public_token_hash', 'public_token_expires_at', 'account_ids', 'webhook_url', 'created_at'])
    .expression(
      db
        .selectFrom('accounts as a')
        .select([
          sql<string>`${item.id}::uuid`.as('id'),
          sql<string>`${item.userId}::uuid`.as('user_id'),
          sql<string>`${item.publicTokenHash}::text`.as('public_token_hash'),
          sql<string>`${item.publicTokenExpiresAt}::timestamptz`.as('public_token_expires_at'),
          sql<string[]>`coalesce(array_agg(a.id order by a.created_at, a.id), '{}')`.as('account_ids'),
          sql<string | null>`${item.webhookUrl}::text`.as('webhook_url'),
          sql<string>`${item.createdAt}::timestamptz`.as('created_at'),
        ])
        .where('a.user_id', '=', item.userId)
        .where('a.status', '=', 'open'),
    )
    .returning(ITEM_COLUMNS)
    .executeTakeFirst();
}

/**
 * Sets the access token of the user's Item whose public token this is, if that token is unused and
 * unexpired on the world's clock and the Item not removed; the Item, or undefined.
 */
export async function exchangeItemPublicToken(
  em: EntityManager,
  { userId, publicTokenHash, accessTokenHash }: { userId: string; publicTokenHash: string; accessTokenHash: string },
): Promise<ItemRow | undefined> {
  return kysely(em)
    .updateTable('plaid_items as i')
    .from('users as u')
    .set({ access_token_hash: accessTokenHash })
    .whereRef('i.user_id', '=', 'u.id')
    .where('u.id', '=', userId)
    .where('i.public_token_hash', '=', publicTokenHash)
    .where('i.access_token_hash', 'is', null)
    .where('i.removed_at', 'is', null)
    .where('i.public_token_expires_at', '>', worldNowOf('u'))
    .returning(I_ITEM_COLUMNS)
    .executeTakeFirst();
}

/** The user's Item with this access token (removed ones included), or undefined. */
export async function selectItemByAccessToken(
  em: EntityManager,
  userId: string,
  accessTokenHash: string,
): Promise<ItemRow | undefined> {
  return kysely(em)
    .selectFrom('plaid_items')
    .select(ITEM_COLUMNS)
    .where('access_token_hash', '=', accessTokenHash)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Sets one column of an Item that is not removed; the Item after, or undefined if it was removed. */
export async function updateLiveItem(
  em: EntityManager,
  itemId: string,
  change: { removed_at: Date } | { webhook_url: string | null },
): Promise<ItemRow | undefined> {
  return kysely(em)
    .updateTable('plaid_items')
    .set(change)
    .where('id', '=', itemId)
    .where('removed_at', 'is', null)
    .returning(ITEM_COLUMNS)
    .executeTakeFirst();
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
  return kysely(em)
    .updateTable('plaid_items')
    .set({ state })
    .where('id', '=', itemId)
    .where('removed_at', 'is', null)
    .where('state', '<>', state)
    .returning(ITEM_COLUMNS)
    .executeTakeFirst();
}

/** Whether the Item exists and is not removed. */
export async function isLiveItem(em: EntityManager, itemId: string): Promise<boolean> {
  const rows = await kysely(em)
    .selectFrom('plaid_items')
    .select('id')
    .where('id', '=', itemId)
    .where('removed_at', 'is', null)
    .execute();
  return rows.length > 0;
}

export type ItemAccountRow = Pick<Row<'accounts'>, 'id' | 'name' | 'currency' | 'balance' | 'held_amount' | 'status'>;

/** A list of uuids as one array parameter. */
const uuids = (ids: readonly string[]) => sql<string[]>`${`{${ids.join(',')}}`}::uuid[]`;

/** The user's accounts among `accountIds` (in no order). */
export function selectItemAccounts(em: EntityManager, userId: string, accountIds: string[]): Promise<ItemAccountRow[]> {
  return kysely(em)
    .selectFrom('accounts')
    .select(['id', 'name', 'currency', 'balance', 'held_amount', 'status'])
    .where('user_id', '=', userId)
    .where(sql<boolean>`id = any(${uuids(accountIds)})`)
    .execute();
}

/** The user's e-mail, or undefined when the user is gone. */
export async function selectUserEmail(em: EntityManager, userId: string): Promise<string | undefined> {
  const row = await kysely(em).selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  return row?.email;
}

/** Which of these transactions of the user posted after being pending first. */
export async function selectPostedFromPending(em: EntityManager, userId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await kysely(em)
    .selectFrom('transactions')
    .select('id')
    .where('user_id', '=', userId)
    .where(sql<boolean>`id = any(${uuids(ids)})`)
    .where('posted_from_pending', '=', true)
    .execute();
  return rows.map((row) => row.id);
}

/** The window `/transactions/get` reads: the user's accounts, [from, before) on the date, voided ones left out. */
export interface ItemTransactionsWindow {
  userId: string;
  accountIds: readonly string[];
  from: Date;
  before: Date;
}

const windowOf = (em: EntityManager, window: ItemTransactionsWindow) =>
  kysely(em)
    .selectFrom('transactions')
    .where('user_id', '=', window.userId)
    .where(sql<boolean>`account_id = any(${uuids(window.accountIds)})`)
    .where('status', '<>', 'voided')
    .where('date', '>=', window.from.toISOString())
    .where('date', '<', window.before.toISOString());

/** A page of the window's transactions, newest first. */
export function selectWindowTransactions(
  em: EntityManager,
  window: ItemTransactionsWindow,
  { count, offset }: { count: number; offset: number },
): Promise<(TransactionRow & { posted_from_pending: boolean })[]> {
  return windowOf(em, window)
    .select((eb) => [
      'id',
      'account_id',
      'external_txn_id',
      'amount',
      'currency',
      'date',
      'description',
      eb.ref('raw').$castTo<Record<string, unknown>>().as('raw'),
      eb.ref('status').$castTo<TransactionStatus>().as('status'),
      'posted_at',
      'version',
      'merchant',
      'category',
      'reversal_of',
      'original_amount',
      'original_currency',
      'exchange_rate',
      'payment_id',
      'counterpart_transaction_id',
      'posted_from_pending',
    ])
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .limit(count)
    .offset(offset)
    .execute();
}

export async function countWindowTransactions(em: EntityManager, window: ItemTransactionsWindow): Promise<number> {
  const count = await windowOf(em, window)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirst();
  return Number(count?.n ?? 0);
}

/** An Item as the console lists it: with whether it was exchanged, its accounts' names and its webhook. */
export type ListedItemRow = ItemRow & {
  exchanged: boolean;
  accounts: Pick<Row<'accounts'>, 'id' | 'name'>[];
  webhook_id: string | null;
  total: string;
};

const selectListed = (em: EntityManager) =>
  kysely(em)
    .selectFrom('plaid_items as i')
    .select((eb) => [
      ...I_ITEM_COLUMNS,
      sql<boolean>`i.access_token_hash is not null`.as('exchanged'),
      sql<string>`count(*) over ()`.as('total'),
      sql<Pick<Row<'accounts'>, 'id' | 'name'>[]>`coalesce((select json_agg(json_build_object('id', a.id, 'name', a.name)
                      order by array_position(i.account_ids, a.id))
                   from accounts a where a.user_id = i.user_id and a.id = any(i.account_ids)), '[]'::json)`.as('accounts'),
      eb
        .selectFrom('webhooks as w')
        .select('w.id')
        .whereRef('w.plaid_item_id', '=', 'i.id')
        .where('w.deleted_at', 'is', null)
        .as('webhook_id'),
    ]);

/** A page of the user's Items, newest first; each row carries the total. */
export function selectListedItems(
  em: EntityManager,
  { userId, limit, offset }: { userId: string; limit: number; offset: number },
): Promise<ListedItemRow[]> {
  return selectListed(em)
    .where('i.user_id', '=', userId)
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function selectListedItem(em: EntityManager, userId: string, id: string): Promise<ListedItemRow | undefined> {
  return selectListed(em).where('i.id', '=', id).where('i.user_id', '=', userId).executeTakeFirst();
}
