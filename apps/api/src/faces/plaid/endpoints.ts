/**
 * The Plaid endpoints Sandbank serves (docs/faces/plaid.md), each: its body schema, whether it needs the
 * Item, and its work — a call into the domain and the mapping of the answer. No rule of its own.
 * `routes` is the face's route table (every one a POST of JSON, as Plaid's are).
 */
import {
  createItem,
  exchangePublicToken,
  listItemTransactions,
  type PlaidItem,
  readClock,
  readItemAccounts,
  readItemOwner,
  removeItem,
  uuidv7,
} from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import { DateTime } from 'luxon';
import type { FaceRoute } from '../kit.ts';
import { type Endpoint, endpoint, plaidItem, readEndpoint, toRoute } from './endpoint.ts';
import { plaidErrors } from './errors.ts';
import type { PlaidCall } from './input.ts';
import {
  INSTITUTION,
  INSTITUTION_ID,
  startOfLocalDate,
  toPlaidAccount,
  toPlaidNumbers,
  toPlaidOwner,
  toPlaidTransaction,
  ZONE,
} from './mapping.ts';
import { checkCountries, checkProducts } from './products.ts';
import { readPlaidSyncPage } from './sync.ts';
import { checkedWebhookUrl, webhookEndpoints } from './webhook-endpoints.ts';
import {
  AccessTokenSchema,
  AccountDataGetSchema,
  AccountsGetSchema,
  InstitutionsGetByIdSchema,
  LinkTokenCreateSchema,
  PublicTokenExchangeSchema,
  SandboxPublicTokenCreateSchema,
  TransactionsGetSchema,
  TransactionsSyncSchema,
} from './wire.ts';

/** The Item's accounts, only `wanted` ones when given (an id not in the Item is INVALID_ACCOUNT_ID). */
async function itemAccounts(em: EntityManager, item: PlaidItem, wanted: readonly string[] | undefined) {
  const accounts = await readItemAccounts(em, item);
  if (!wanted || wanted.length === 0) return accounts;
  if (wanted.some((id) => !accounts.some((account) => account.id === id))) throw plaidErrors.invalidAccountId();
  return accounts.filter((account) => wanted.includes(account.id));
}

const accountsGet = readEndpoint(AccountsGetSchema, 'usable', async ({ em, item, body }) => ({
  accounts: (await itemAccounts(em, item, body.options?.account_ids)).map(toPlaidAccount),
  item: plaidItem(item),
}));

export const endpoints: Record<string, Endpoint> = {
  '/sandbox/public_token/create': endpoint(SandboxPublicTokenCreateSchema, undefined, async ({ deps, em, userId, body }) => {
    if (body.institution_id !== INSTITUTION_ID) throw plaidErrors.invalidInstitution();
    checkProducts(body.initial_products);
    const webhook = body.options?.webhook ? await checkedWebhookUrl(deps, body.options.webhook, 'options.webhook') : null;
    const { publicToken } = await createItem(em, {
      userId,
      webhookUrl: webhook,
      secrets: deps.secrets,
      webhookLimit: deps.config.limits.webhooks,
    });
    return { public_token: publicToken };
  }),

  '/item/public_token/exchange': endpoint(PublicTokenExchangeSchema, undefined, async ({ em, userId, body }) => {
    const exchanged = await exchangePublicToken(em, { userId, publicToken: body.public_token });
    if (!exchanged) throw plaidErrors.invalidPublicToken();
    return { access_token: exchanged.accessToken, item_id: exchanged.item.id };
  }),

  '/item/get': endpoint(AccessTokenSchema, 'any', async ({ item }) => ({ item: plaidItem(item) })),

  '/item/remove': endpoint(AccessTokenSchema, 'any', async ({ em, item }) => {
    if (!(await removeItem(em, item))) throw plaidErrors.itemNotFound();
    return {};
  }),

  '/accounts/get': accountsGet,
  '/accounts/balance/get': accountsGet,

  '/institutions/get_by_id': endpoint(InstitutionsGetByIdSchema, undefined, async ({ body }) => {
    if (body.institution_id !== INSTITUTION_ID) throw plaidErrors.invalidInstitution();
    return { institution: INSTITUTION };
  }),

  // Link is Plaid's browser UI (out of scope): the token is only handed out, valid 4 hours of the world's clock.
  '/link/token/create': endpoint(LinkTokenCreateSchema, undefined, async ({ em, userId, body }) => {
    checkProducts([
      ...(body.products ?? []),
      ...(body.required_if_supported_products ?? []),
      ...(body.optional_products ?? []),
      ...(body.additional_consented_products ?? []),
    ]);
    checkCountries(body.country_codes);
    const { now } = await readClock(em, userId);
    return { link_token: `link-sandbox-${uuidv7()}`, expiration: new Date(now.getTime() + 4 * 3_600_000).toISOString() };
  }),

  '/auth/get': readEndpoint(AccountDataGetSchema, 'usable', async ({ em, item, body }) => {
    const accounts = await itemAccounts(em, item, body.options?.account_ids);
    return { accounts: accounts.map(toPlaidAccount), numbers: toPlaidNumbers(accounts), item: plaidItem(item) };
  }),

  '/identity/get': readEndpoint(AccountDataGetSchema, 'usable', async ({ em, item, body }) => {
    const accounts = await itemAccounts(em, item, body.options?.account_ids);
    const owner = await readItemOwner(em, item);
    if (!owner) throw plaidErrors.itemNotFound();
    const owners = [toPlaidOwner(owner)];
    return { accounts: accounts.map((account) => ({ ...toPlaidAccount(account), owners })), item: plaidItem(item) };
  }),

  '/transactions/sync': readEndpoint(TransactionsSyncSchema, 'usable', async ({ em, item, body }) => {
    const page = await readPlaidSyncPage(em, {
      item,
      cursor: body.cursor || undefined,
      count: body.count ?? 100,
      includeOriginalDescription: body.options?.include_original_description === true,
    });
    return {
      ...page.changes,
      accounts: (await readItemAccounts(em, item)).map(toPlaidAccount),
      next_cursor: page.nextCursor,
      has_more: page.hasMore,
      transactions_update_status: 'HISTORICAL_UPDATE_COMPLETE',
    };
  }),

  '/transactions/get': readEndpoint(TransactionsGetSchema, 'usable', async ({ em, item, body }) => {
    if (body.start_date > body.end_date) throw plaidErrors.invalidField('start_date must be on or before end_date');
    const accounts = await itemAccounts(em, item, body.options?.account_ids);
    const dayAfterEnd = DateTime.fromISO(body.end_date, { zone: ZONE }).plus({ days: 1 }).toISODate() ?? body.end_date;
    const listed = await listItemTransactions(em, {
      item,
      from: startOfLocalDate(body.start_date),
      before: startOfLocalDate(dayAfterEnd),
      accountIds: accounts.map((account) => account.id),
      count: body.options?.count ?? 100,
      offset: body.options?.offset ?? 0,
    });
    const includeOriginalDescription = body.options?.include_original_description === true;
    return {
      accounts: accounts.map(toPlaidAccount),
      transactions: listed.transactions.map((transaction) =>
        toPlaidTransaction(transaction, {
          postedFromPending: listed.postedFromPending.has(transaction.id),
          includeOriginalDescription,
        }),
      ),
      total_transactions: listed.total,
      item: plaidItem(item),
    };
  }),

  ...webhookEndpoints,
};

const SUMMARIES: Record<string, string> = {
  '/sandbox/public_token/create': 'A public token for a new Item of the Sandbank institution, without Link',
  '/item/public_token/exchange': 'Exchange a public token for the Item’s access token',
  '/item/get': 'The Item, its products and its error (ITEM_LOGIN_REQUIRED after a reset login)',
  '/item/remove': 'Remove the Item; its access token stops working',
  '/accounts/get': 'The Item’s accounts with their balances',
  '/accounts/balance/get': 'The Item’s accounts with their balances as of the world’s clock',
  '/institutions/get_by_id': 'The Sandbank institution',
  '/link/token/create': 'A link token (Link is Plaid’s browser UI; the sandbox creates Items without it)',
  '/auth/get': 'The accounts with their numbers (IBAN and BIC)',
  '/identity/get': 'The accounts with their owner',
  '/transactions/sync': 'Transactions added, modified and removed since a cursor',
  '/transactions/get': 'Transactions of a date range, a page at a time',
  '/item/webhook/update': 'Set or clear the Item’s webhook URL',
  '/transactions/refresh': 'Ask for a refresh (the world is always current)',
  '/sandbox/item/reset_login': 'Put the Item in ITEM_LOGIN_REQUIRED (and send its ERROR webhook)',
  '/sandbox/item/repair': 'Repair the Item’s login, as Link’s update mode would (LOGIN_REPAIRED webhook)',
  '/sandbox/item/fire_webhook': 'Send one of the Item’s webhooks now',
  '/webhook_verification_key/get': 'The public key that verifies the webhooks’ Plaid-Verification JWT',
};

export const routes: Record<string, FaceRoute<PlaidCall>> = Object.fromEntries(
  Object.entries(endpoints).map(([path, endpoint]) => [`post ${path}`, toRoute(path, endpoint, SUMMARIES[path])]),
);
