/**
 * The face's wire in Plaid's field names (zod). Request bodies: strict where Plaid rejects unknown
 * fields with UNKNOWN_FIELDS; `client_id` and `secret` may come in the body or in the PLAID-CLIENT-ID
 * / PLAID-SECRET headers, as Plaid's SDK sends them; every string and array is bounded. Answers: what
 * `mapping.ts` builds, for the face's OpenAPI document (`/faces/plaid/openapi.json`); the tests parse
 * real answers with them, and check the same answers against Plaid's published document.
 */
import { LocalDaySchema } from '@sandbank/core';
import { z } from 'zod';

const text = (max = 256) => z.string().max(max);
const token = z.string().min(1).max(256);
const localDate = LocalDaySchema;

const credentials = { client_id: text().optional(), secret: text().optional() };
const withAccessToken = { ...credentials, access_token: token };

export const SandboxPublicTokenCreateSchema = z.strictObject({
  ...credentials,
  institution_id: text(),
  initial_products: z.array(text(64)).min(1).max(20),
  options: z
    .strictObject({
      webhook: text(2048).optional(),
      override_username: text().nullable().optional(),
      override_password: text().nullable().optional(),
      transactions: z
        .strictObject({
          start_date: localDate.optional(),
          end_date: localDate.optional(),
          days_requested: z.int().min(1).max(730).optional(),
        })
        .optional(),
    })
    .optional(),
  user_token: text().optional(),
});

export const PublicTokenExchangeSchema = z.strictObject({ ...credentials, public_token: token });

export const AccessTokenSchema = z.strictObject(withAccessToken);

const accountIds = z.array(text(64)).max(100);

export const AccountsGetSchema = z.strictObject({
  ...withAccessToken,
  options: z
    .strictObject({ account_ids: accountIds.optional(), min_last_updated_datetime: z.iso.datetime().optional() })
    .optional(),
});

/** `/auth/get` and `/identity/get`: the Item's accounts, only `options.account_ids` when given. */
export const AccountDataGetSchema = z.strictObject({
  ...withAccessToken,
  options: z.strictObject({ account_ids: accountIds.optional() }).optional(),
});

export const TransactionsSyncSchema = z.strictObject({
  ...withAccessToken,
  // Absent, empty or null: from the beginning (Plaid's own quickstart sends null).
  cursor: z.string().max(1024).nullable().optional(),
  count: z.int().min(1).max(500).optional(),
  options: z
    .strictObject({
      include_original_description: z.boolean().nullable().optional(),
      include_personal_finance_category: z.boolean().optional(),
      include_logo_and_counterparty_beta: z.boolean().optional(),
      days_requested: z.int().min(1).max(730).optional(),
      account_id: text(64).optional(),
    })
    .optional(),
});

export const TransactionsGetSchema = z.strictObject({
  ...withAccessToken,
  start_date: localDate,
  end_date: localDate,
  options: z
    .strictObject({
      account_ids: accountIds.optional(),
      count: z.int().min(1).max(500).optional(),
      offset: z.int().min(0).max(1_000_000).optional(),
      include_original_description: z.boolean().nullable().optional(),
      include_personal_finance_category: z.boolean().optional(),
      include_logo_and_counterparty_beta: z.boolean().optional(),
      days_requested: z.int().min(1).max(730).optional(),
    })
    .optional(),
});

export const InstitutionsGetByIdSchema = z.strictObject({
  ...credentials,
  institution_id: text(),
  country_codes: z.array(text(2)).max(30),
  options: z
    .strictObject({
      include_optional_metadata: z.boolean().optional(),
      include_status: z.boolean().optional(),
      include_auth_metadata: z.boolean().optional(),
      include_payment_initiation_metadata: z.boolean().optional(),
    })
    .optional(),
});

/** Link's configuration has dozens of fields for Plaid's browser UI, which Sandbank does not run: the required ones are checked, the rest accepted. */
export const LinkTokenCreateSchema = z.looseObject({
  ...credentials,
  client_name: text(),
  language: text(8),
  country_codes: z.array(text(2)).min(1).max(30),
  user: z.looseObject({ client_user_id: text() }),
  products: z.array(text(64)).max(20).nullable().optional(),
  required_if_supported_products: z.array(text(64)).max(20).nullable().optional(),
  optional_products: z.array(text(64)).max(20).nullable().optional(),
  additional_consented_products: z.array(text(64)).max(20).nullable().optional(),
  webhook: text(2048).optional(),
  access_token: token.nullable().optional(),
});

export const ItemWebhookUpdateSchema = z.strictObject({ ...withAccessToken, webhook: text(2048).nullable().optional() });

export const SandboxFireWebhookSchema = z.strictObject({
  ...withAccessToken,
  webhook_type: text(64).optional(),
  webhook_code: text(64),
});

export const WebhookVerificationKeyGetSchema = z.strictObject({ ...credentials, key_id: text() });

// The answers.

const nullableText = z.string().nullable();
const requestId = z.string().meta({ description: 'The trace id of the request (also in X-Request-Id)' });

export const PlaidErrorSchema = z
  .object({
    error_type: z.enum(['INVALID_REQUEST', 'INVALID_INPUT', 'ITEM_ERROR', 'RATE_LIMIT_EXCEEDED', 'API_ERROR']),
    error_code: z.string(),
    error_message: z.string(),
    display_message: nullableText,
    request_id: requestId,
  })
  .meta({ id: 'PlaidError' });

const BalancesSchema = z.object({
  available: z.number().meta({ description: 'Balance less held pending debits, major units' }),
  current: z.number().meta({ description: 'Posted balance, major units' }),
  limit: z.null(),
  iso_currency_code: z.string(),
  unofficial_currency_code: z.null(),
});

const AccountSchema = z
  .object({
    account_id: z.uuid(),
    balances: BalancesSchema,
    mask: z.string().length(4).meta({ description: 'The last 4 digits of the account’s IBAN' }),
    name: z.string(),
    official_name: z.null(),
    type: z.literal('depository'),
    subtype: z.literal('checking'),
  })
  .meta({ id: 'Account' });

const ItemSchema = z
  .object({
    item_id: z.uuid(),
    institution_id: z.literal('ins_sandbank'),
    webhook: nullableText,
    error: PlaidErrorSchema.omit({ request_id: true }).nullable(),
    available_products: z.array(z.string()),
    billed_products: z.array(z.string()),
    products: z.array(z.string()),
    consented_products: z.array(z.string()),
    consent_expiration_time: z.null(),
    update_type: z.literal('background'),
  })
  .meta({ id: 'Item' });

const nulls = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((key) => [key, z.null()])) as Record<K, z.ZodNull>);

const TransactionSchema = z
  .object({
    transaction_id: z.string().meta({ description: '`pending-<id>` while pending, `posted-<id>` once posted' }),
    pending_transaction_id: nullableText,
    account_id: z.uuid(),
    account_owner: z.null(),
    amount: z.number().meta({ description: 'Major units, positive when money leaves the account' }),
    iso_currency_code: z.string(),
    unofficial_currency_code: z.null(),
    date: z.iso.date(),
    datetime: z.iso.datetime().nullable(),
    authorized_date: z.iso.date(),
    authorized_datetime: z.iso.datetime(),
    pending: z.boolean(),
    name: z.string(),
    merchant_name: nullableText,
    original_description: nullableText,
    personal_finance_category: z.object({ primary: z.string(), detailed: z.string(), confidence_level: z.string() }).nullable(),
    payment_channel: z.literal('other'),
    payment_meta: nulls(['ppd_id', 'by_order_of', 'payment_method', 'payment_processor', 'reason']).extend({
      reference_number: nullableText.meta({ description: "A payment's EndToEndId" }),
      payee: nullableText.meta({ description: 'Who a payment went to (money out)' }),
      payer: nullableText.meta({ description: 'Who a payment came from (money in)' }),
    }),
    location: nulls(['address', 'city', 'region', 'postal_code', 'country', 'lat', 'lon', 'store_number']),
    category: z.null(),
    category_id: z.null(),
    check_number: z.null(),
    transaction_code: z.null(),
    logo_url: z.null(),
    website: z.null(),
    merchant_entity_id: z.null(),
    counterparties: z.array(z.never()),
  })
  .meta({ id: 'Transaction' });

const OwnerSchema = z.object({
  names: z.array(z.string()).meta({ description: 'The world’s user, by e-mail (a user has no name)' }),
  emails: z.array(z.object({ data: z.string(), primary: z.boolean(), type: z.literal('primary') })),
  phone_numbers: z.array(z.never()),
  addresses: z.array(
    z.object({
      data: z.object({
        street: z.string(),
        city: z.string(),
        region: z.null(),
        postal_code: z.string(),
        country: z.literal('PL'),
      }),
      primary: z.boolean(),
    }),
  ),
});

const withRequestId = <T extends z.ZodRawShape>(shape: T) => z.object({ ...shape, request_id: requestId });

/** Each endpoint's 200 body. */
export const RESPONSES: Record<string, z.ZodType> = {
  '/sandbox/public_token/create': withRequestId({ public_token: z.string() }),
  '/item/public_token/exchange': withRequestId({ access_token: z.string(), item_id: z.uuid() }),
  '/item/get': withRequestId({ item: ItemSchema }),
  '/item/remove': withRequestId({}),
  '/accounts/get': withRequestId({ accounts: z.array(AccountSchema), item: ItemSchema }),
  '/accounts/balance/get': withRequestId({ accounts: z.array(AccountSchema), item: ItemSchema }),
  '/institutions/get_by_id': withRequestId({ institution: z.object({ institution_id: z.string(), name: z.string() }).loose() }),
  '/link/token/create': withRequestId({ link_token: z.string(), expiration: z.iso.datetime() }),
  '/transactions/sync': withRequestId({
    added: z.array(TransactionSchema),
    modified: z.array(TransactionSchema),
    removed: z.array(z.object({ transaction_id: z.string(), account_id: z.uuid() })),
    accounts: z.array(AccountSchema),
    next_cursor: z.string(),
    has_more: z.boolean(),
    transactions_update_status: z.literal('HISTORICAL_UPDATE_COMPLETE'),
  }),
  '/transactions/get': withRequestId({
    accounts: z.array(AccountSchema),
    transactions: z.array(TransactionSchema),
    total_transactions: z.int(),
    item: ItemSchema,
  }),
  '/transactions/refresh': withRequestId({}),
  '/auth/get': withRequestId({
    accounts: z.array(AccountSchema),
    numbers: z.object({
      ach: z.array(z.never()),
      eft: z.array(z.never()),
      international: z.array(z.object({ account_id: z.uuid(), iban: z.string(), bic: z.string() })),
      bacs: z.array(z.never()),
    }),
    item: ItemSchema,
  }),
  '/identity/get': withRequestId({
    accounts: z.array(AccountSchema.extend({ owners: z.array(OwnerSchema) })),
    item: ItemSchema,
  }),
  '/item/webhook/update': withRequestId({ item: ItemSchema }),
  '/sandbox/item/reset_login': withRequestId({ reset_login: z.literal(true) }),
  '/sandbox/item/repair': withRequestId({ repaired: z.literal(true) }),
  '/sandbox/item/fire_webhook': withRequestId({ webhook_fired: z.literal(true) }),
  '/webhook_verification_key/get': withRequestId({
    key: z.object({
      alg: z.literal('ES256'),
      kid: z.string(),
      kty: z.literal('EC'),
      crv: z.literal('P-256'),
      x: z.string(),
      y: z.string(),
      use: z.literal('sig'),
      created_at: z.int(),
      expired_at: z.int().nullable(),
    }),
  }),
};
