/**
 * The face's request bodies in Plaid's field names (zod, strict where Plaid rejects unknown fields
 * with UNKNOWN_FIELDS). `client_id` and `secret` may come in the body or in the PLAID-CLIENT-ID /
 * PLAID-SECRET headers, as Plaid's SDK sends them. Every string and array is bounded.
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
