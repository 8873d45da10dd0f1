// The tables as Kysely sees them, rendered from a migrated database by packages/db/src/table-types.ts.
// Do not edit: migrations change the schema; `pnpm --filter @sandbank/db schema` rewrites this file.
// migrations digest: d00ee640faf7a25008459ee610126556
import type { ColumnType } from 'kysely';

/** A `jsonb` value as node-postgres parses it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

interface AccountsTable {
  id: string;
  user_id: string;
  name: string;
  balance: ColumnType<string, string | bigint | number | undefined, string | bigint | number>;
  currency: ColumnType<string, string | undefined, string>;
  status: ColumnType<string, string | undefined, string>;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
  closed_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  transaction_count: ColumnType<string, string | bigint | number | undefined, string | bigint | number>;
  held_amount: ColumnType<string, string | bigint | number | undefined, string | bigint | number>;
  card_fx_margin: ColumnType<string, string | bigint | number | undefined, string | bigint | number>;
}

interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
  last_used_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  expires_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  revoked_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
}

interface EnablebankingApplicationsTable {
  id: string;
  user_id: string;
  name: string;
  redirect_urls: string[];
  public_key: string;
  created_at: ColumnType<string, string | Date, string | Date>;
}

interface EnablebankingAuthorizationsTable {
  id: string;
  application_id: string;
  user_id: string;
  aspsp_name: string;
  aspsp_country: string;
  psu_type: string;
  state: string;
  redirect_url: string;
  valid_until: ColumnType<string, string | Date, string | Date>;
  balances: boolean;
  transactions: boolean;
  status: ColumnType<string, string | undefined, string>;
  code_hash: ColumnType<string | null, string | null | undefined, string | null>;
  account_ids: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  created_at: ColumnType<string, string | Date, string | Date>;
  decided_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
}

interface EnablebankingDailyAccessTable {
  uid: string;
  scope: string;
  day: ColumnType<string, string | Date, string | Date>;
  count: number;
}

interface EnablebankingPaymentsTable {
  id: string;
  application_id: string;
  user_id: string;
  aspsp_name: string;
  aspsp_country: string;
  psu_type: string;
  payment_type: string;
  scheme: string;
  state: string;
  redirect_url: string;
  amount: ColumnType<string, string | bigint | number, string | bigint | number>;
  currency: string;
  creditor_name: string;
  creditor_iban: string;
  remittance: string;
  end_to_end_id: ColumnType<string | null, string | null | undefined, string | null>;
  requested_execution_date: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  debtor_account_id: ColumnType<string | null, string | null | undefined, string | null>;
  payment_details: Json;
  status: ColumnType<string, string | undefined, string>;
  payment_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<string, string | Date, string | Date>;
  decided_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  deleted_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
}

interface EnablebankingSessionAccountsTable {
  uid: string;
  session_id: string;
  account_id: string;
  position: number;
}

interface EnablebankingSessionsTable {
  id: string;
  application_id: string;
  user_id: string;
  authorization_id: string;
  created_at: ColumnType<string, string | Date, string | Date>;
  closed_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
}

interface EventsTable {
  id: string;
  type: string;
  user_id: string;
  payload: Json;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
  relayed_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  txid: ColumnType<string, string | undefined, string>;
  seq: ColumnType<string, string | bigint | number | undefined, string | bigint | number>;
}

interface FxRatePinsTable {
  user_id: string;
  day: ColumnType<string, string | Date, string | Date>;
  base: string;
  quote: string;
  rate: ColumnType<string, string | bigint | number, string | bigint | number>;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
}

interface GocardlessAccountsTable {
  id: string;
  requisition_id: string;
  account_id: string;
  user_id: string;
  position: number;
  created_at: ColumnType<string, string | Date, string | Date>;
  last_accessed: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
}

interface GocardlessAgreementsTable {
  id: string;
  user_id: string;
  institution_id: string;
  max_historical_days: number;
  access_valid_for_days: number;
  access_scope: string[];
  created_at: ColumnType<string, string | Date, string | Date>;
  accepted_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
}

interface GocardlessDailyAccessTable {
  account_id: string;
  scope: string;
  day: ColumnType<string, string | Date, string | Date>;
  count: number;
}

interface GocardlessRequisitionsTable {
  id: string;
  user_id: string;
  agreement_id: string;
  institution_id: string;
  redirect: string;
  reference: string;
  user_language: string;
  status: ColumnType<string, string | undefined, string>;
  created_at: ColumnType<string, string | Date, string | Date>;
  decided_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  step_at: ColumnType<string, string | Date, string | Date>;
  api_key_id: ColumnType<string | null, string | null | undefined, string | null>;
}

interface PasswordGuessesTable {
  key: string;
  in_flight: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
  blocked_until: ColumnType<string | null, string | bigint | number | null | undefined, string | bigint | number | null>;
  expire: ColumnType<string, string | bigint | number, string | bigint | number>;
}

interface PaymentFilesTable {
  id: string;
  user_id: string;
  message_id: string;
  message_name_id: string;
  file_created_at: string;
  initiating_party_name: ColumnType<string | null, string | null | undefined, string | null>;
  number_of_transactions: number;
  control_sum: ColumnType<string | null, string | null | undefined, string | null>;
  blocks: Json;
  created_at: ColumnType<string, string | Date, string | Date>;
}

interface PaymentsTable {
  id: string;
  user_id: string;
  from_account_id: string;
  currency: string;
  to_account_id: ColumnType<string | null, string | null | undefined, string | null>;
  counterparty_name: ColumnType<string | null, string | null | undefined, string | null>;
  counterparty_iban: ColumnType<string | null, string | null | undefined, string | null>;
  amount: ColumnType<string, string | bigint | number, string | bigint | number>;
  credit_amount: ColumnType<string | null, string | bigint | number | null | undefined, string | bigint | number | null>;
  credit_currency: ColumnType<string | null, string | null | undefined, string | null>;
  scheme: string;
  status: string;
  reason_code: ColumnType<string | null, string | null | undefined, string | null>;
  reason_message: ColumnType<string | null, string | null | undefined, string | null>;
  end_to_end_id: string;
  description: ColumnType<string, string | undefined, string>;
  requested_execution_date: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  due_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  accepted_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  settled_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  return_reason_code: ColumnType<string | null, string | null | undefined, string | null>;
  return_reason_message: ColumnType<string | null, string | null | undefined, string | null>;
  returned_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  idempotency_key: ColumnType<string | null, string | null | undefined, string | null>;
  request_fingerprint: string;
  created_at: ColumnType<string, string | Date, string | Date>;
  updated_at: ColumnType<string, string | Date, string | Date>;
  payment_file_id: ColumnType<string | null, string | null | undefined, string | null>;
  payment_file_position: ColumnType<number | null, number | null | undefined, number | null>;
}

interface PlaidItemsTable {
  id: string;
  user_id: string;
  public_token_hash: string;
  public_token_expires_at: ColumnType<string, string | Date, string | Date>;
  access_token_hash: ColumnType<string | null, string | null | undefined, string | null>;
  account_ids: string[];
  webhook_url: ColumnType<string | null, string | null | undefined, string | null>;
  state: ColumnType<string, string | undefined, string>;
  created_at: ColumnType<string, string | Date, string | Date>;
  removed_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
}

interface PlaidSigningKeysTable {
  kid: string;
  private_key_ciphertext: string;
  private_key_key_id: string;
  public_jwk: Json;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
  expired_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  retired_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
}

interface RateLimitsTable {
  key: string;
  points: ColumnType<number, number | undefined, number>;
  expire: ColumnType<string | null, string | bigint | number | null | undefined, string | bigint | number | null>;
}

interface RefreshTokensTable {
  id: string;
  family_id: string;
  user_id: string;
  token_hash: string;
  expires_at: ColumnType<string, string | Date, string | Date>;
  used_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  revoked_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
  world: ColumnType<boolean, boolean | undefined, boolean>;
}

interface ScheduleRunsTable {
  schedule_id: string;
  n: number;
  due_at: ColumnType<string, string | Date, string | Date>;
  transaction_id: ColumnType<string | null, string | null | undefined, string | null>;
  failure_code: ColumnType<string | null, string | null | undefined, string | null>;
  failure_message: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
}

interface SchedulesTable {
  id: string;
  user_id: string;
  account_id: string;
  amount: ColumnType<string, string | bigint | number, string | bigint | number>;
  description: string;
  merchant: ColumnType<string | null, string | null | undefined, string | null>;
  category: ColumnType<string | null, string | null | undefined, string | null>;
  rrule: string;
  timezone: string;
  start_at: ColumnType<string, string | Date, string | Date>;
  status: ColumnType<string, string | undefined, string>;
  settle_after: ColumnType<string | null, string | null | undefined, string | null>;
  state: ColumnType<string, string | undefined, string>;
  next_run_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  next_run_n: ColumnType<number, number | undefined, number>;
  created_at: ColumnType<string, string | Date, string | Date>;
  updated_at: ColumnType<string, string | Date | undefined, string | Date>;
  payment: ColumnType<Json | null, Json | null | undefined, Json | null>;
}

interface SimplefinClaimsTable {
  code_hash: string;
  user_id: string;
  expires_at: ColumnType<string, string | Date, string | Date>;
  claimed_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  api_key_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
}

interface TransactionsTable {
  id: string;
  account_id: string;
  external_txn_id: string;
  amount: ColumnType<string, string | bigint | number, string | bigint | number>;
  currency: string;
  date: ColumnType<string, string | Date, string | Date>;
  description: ColumnType<string, string | undefined, string>;
  raw: Json;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
  user_id: string;
  status: ColumnType<string, string | undefined, string>;
  posted_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  version: ColumnType<number, number | undefined, number>;
  merchant: ColumnType<string | null, string | null | undefined, string | null>;
  category: ColumnType<string | null, string | null | undefined, string | null>;
  reversal_of: ColumnType<string | null, string | null | undefined, string | null>;
  reversed_amount: ColumnType<string, string | bigint | number | undefined, string | bigint | number>;
  settle_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  expire_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  updated_at: ColumnType<string, string | Date | undefined, string | Date>;
  request_fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
  posted_from_pending: ColumnType<boolean, boolean | undefined, boolean>;
  payment_id: ColumnType<string | null, string | null | undefined, string | null>;
  counterpart_transaction_id: ColumnType<string | null, string | null | undefined, string | null>;
  original_amount: ColumnType<string | null, string | bigint | number | null | undefined, string | bigint | number | null>;
  original_currency: ColumnType<string | null, string | null | undefined, string | null>;
  exchange_rate: ColumnType<string | null, string | bigint | number | null | undefined, string | bigint | number | null>;
}

interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
  updated_at: ColumnType<string, string | Date | undefined, string | Date>;
  sync_epoch: ColumnType<number, number | undefined, number>;
  clock_offset_ms: ColumnType<string, string | bigint | number | undefined, string | bigint | number>;
  fx_seed: ColumnType<number | null, number | null | undefined, number | null>;
}

interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  status: ColumnType<string, string | undefined, string>;
  attempt_count: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  last_status_code: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
  updated_at: ColumnType<string, string | Date | undefined, string | Date>;
  completed_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  cycle: ColumnType<number, number | undefined, number>;
}

interface WebhookDeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  started_at: ColumnType<string, string | Date, string | Date>;
  duration_ms: number;
  status_code: ColumnType<number | null, number | null | undefined, number | null>;
  error: ColumnType<string | null, string | null | undefined, string | null>;
  next_attempt_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  faults: ColumnType<Json, Json | undefined, Json>;
  request_url: ColumnType<string | null, string | null | undefined, string | null>;
  request_headers: ColumnType<Json | null, Json | null | undefined, Json | null>;
  request_body: ColumnType<string | null, string | null | undefined, string | null>;
  response_status: ColumnType<number | null, number | null | undefined, number | null>;
  response_headers: ColumnType<Json | null, Json | null | undefined, Json | null>;
  response_body: ColumnType<string | null, string | null | undefined, string | null>;
  response_body_truncated: ColumnType<boolean, boolean | undefined, boolean>;
  exchange_removed_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
}

interface WebhooksTable {
  id: string;
  user_id: string;
  client_id: string;
  url: string;
  events: string[];
  secret_ciphertext: string;
  secret_key_id: string;
  status: ColumnType<string, string | undefined, string>;
  disabled_reason: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
  updated_at: ColumnType<string, string | Date | undefined, string | Date>;
  deleted_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  previous_secret_ciphertext: ColumnType<string | null, string | null | undefined, string | null>;
  previous_secret_key_id: ColumnType<string | null, string | null | undefined, string | null>;
  secret_rotated_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  plaid_item_id: ColumnType<string | null, string | null | undefined, string | null>;
  faults: ColumnType<Json | null, Json | null | undefined, Json | null>;
}

interface WorkerHeartbeatsTable {
  worker_id: string;
  last_seen_at: ColumnType<string, string | Date, string | Date>;
}

interface WorldSnapshotAccountsTable {
  snapshot_id: string;
  ord: number;
  id: string;
  name: string;
  balance: ColumnType<string, string | bigint | number, string | bigint | number>;
  currency: string;
  status: string;
  created_at: ColumnType<string, string | Date, string | Date>;
  closed_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  transaction_count: ColumnType<string, string | bigint | number, string | bigint | number>;
  held_amount: ColumnType<string, string | bigint | number, string | bigint | number>;
  card_fx_margin: ColumnType<string, string | bigint | number | undefined, string | bigint | number>;
}

interface WorldSnapshotApiKeysTable {
  snapshot_id: string;
  ord: number;
  id: string;
  name: string;
  created_at: ColumnType<string, string | Date, string | Date>;
  expires_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
}

interface WorldSnapshotFxRatePinsTable {
  snapshot_id: string;
  day: ColumnType<string, string | Date, string | Date>;
  base: string;
  quote: string;
  rate: ColumnType<string, string | bigint | number, string | bigint | number>;
}

interface WorldSnapshotPaymentFilesTable {
  snapshot_id: string;
  ord: number;
  id: string;
  message_id: string;
  message_name_id: string;
  file_created_at: string;
  initiating_party_name: ColumnType<string | null, string | null | undefined, string | null>;
  number_of_transactions: number;
  control_sum: ColumnType<string | null, string | null | undefined, string | null>;
  blocks: Json;
  created_at: ColumnType<string, string | Date, string | Date>;
}

interface WorldSnapshotPaymentsTable {
  snapshot_id: string;
  ord: number;
  id: string;
  from_account_ord: number;
  currency: string;
  to_account_ord: ColumnType<number | null, number | null | undefined, number | null>;
  counterparty_name: ColumnType<string | null, string | null | undefined, string | null>;
  counterparty_iban: ColumnType<string | null, string | null | undefined, string | null>;
  amount: ColumnType<string, string | bigint | number, string | bigint | number>;
  credit_amount: ColumnType<string | null, string | bigint | number | null | undefined, string | bigint | number | null>;
  credit_currency: ColumnType<string | null, string | null | undefined, string | null>;
  scheme: string;
  status: string;
  reason_code: ColumnType<string | null, string | null | undefined, string | null>;
  reason_message: ColumnType<string | null, string | null | undefined, string | null>;
  end_to_end_id: string;
  description: string;
  requested_execution_date: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  due_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  accepted_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  settled_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  return_reason_code: ColumnType<string | null, string | null | undefined, string | null>;
  return_reason_message: ColumnType<string | null, string | null | undefined, string | null>;
  returned_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  idempotency_key: ColumnType<string | null, string | null | undefined, string | null>;
  request_fingerprint: string;
  payment_file_ord: ColumnType<number | null, number | null | undefined, number | null>;
  payment_file_position: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: ColumnType<string, string | Date, string | Date>;
  updated_at: ColumnType<string, string | Date, string | Date>;
}

interface WorldSnapshotScheduleRunsTable {
  snapshot_id: string;
  schedule_ord: number;
  schedule_id: string;
  n: number;
  due_at: ColumnType<string, string | Date, string | Date>;
  transaction_ord: ColumnType<number | null, number | null | undefined, number | null>;
  transaction_id: ColumnType<string | null, string | null | undefined, string | null>;
  failure_code: ColumnType<string | null, string | null | undefined, string | null>;
  failure_message: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<string, string | Date, string | Date>;
}

interface WorldSnapshotSchedulesTable {
  snapshot_id: string;
  ord: number;
  id: string;
  account_ord: number;
  account_id: string;
  amount: ColumnType<string, string | bigint | number, string | bigint | number>;
  description: string;
  merchant: ColumnType<string | null, string | null | undefined, string | null>;
  category: ColumnType<string | null, string | null | undefined, string | null>;
  rrule: string;
  timezone: string;
  start_at: ColumnType<string, string | Date, string | Date>;
  status: string;
  settle_after: ColumnType<string | null, string | null | undefined, string | null>;
  state: string;
  next_run_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  next_run_n: number;
  created_at: ColumnType<string, string | Date, string | Date>;
  payment: ColumnType<Json | null, Json | null | undefined, Json | null>;
}

interface WorldSnapshotTransactionsTable {
  snapshot_id: string;
  ord: number;
  id: string;
  account_ord: number;
  account_id: string;
  external_txn_id: string;
  schedule_ord: ColumnType<number | null, number | null | undefined, number | null>;
  amount: ColumnType<string, string | bigint | number, string | bigint | number>;
  currency: string;
  date: ColumnType<string, string | Date, string | Date>;
  description: string;
  raw: Json;
  status: string;
  posted_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  version: number;
  merchant: ColumnType<string | null, string | null | undefined, string | null>;
  category: ColumnType<string | null, string | null | undefined, string | null>;
  reversal_ord: ColumnType<number | null, number | null | undefined, number | null>;
  reversal_of: ColumnType<string | null, string | null | undefined, string | null>;
  reversed_amount: ColumnType<string, string | bigint | number, string | bigint | number>;
  settle_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  expire_at: ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
  created_at: ColumnType<string, string | Date, string | Date>;
  request_fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
  posted_from_pending: boolean;
  original_amount: ColumnType<string | null, string | bigint | number | null | undefined, string | bigint | number | null>;
  original_currency: ColumnType<string | null, string | null | undefined, string | null>;
  exchange_rate: ColumnType<string | null, string | bigint | number | null | undefined, string | bigint | number | null>;
  payment_ord: ColumnType<number | null, number | null | undefined, number | null>;
  counterpart_ord: ColumnType<number | null, number | null | undefined, number | null>;
}

interface WorldSnapshotWebhooksTable {
  snapshot_id: string;
  ord: number;
  id: string;
  client_id: string;
  url: string;
  events: string[];
  status: string;
  disabled_reason: ColumnType<string | null, string | null | undefined, string | null>;
  faults: ColumnType<Json | null, Json | null | undefined, Json | null>;
  created_at: ColumnType<string, string | Date, string | Date>;
}

interface WorldSnapshotsTable {
  id: string;
  user_id: string;
  name: string;
  taken_at: ColumnType<string, string | Date, string | Date>;
  clock_offset_ms: ColumnType<string, string | bigint | number, string | bigint | number>;
  accounts: number;
  transactions: number;
  schedules: number;
  created_at: ColumnType<string, string | Date, string | Date>;
  webhooks: ColumnType<number, number | undefined, number>;
  api_keys: ColumnType<number, number | undefined, number>;
  include: ColumnType<string[], string[] | undefined, string[]>;
  fx_seed: ColumnType<number | null, number | null | undefined, number | null>;
}

interface WorldsTable {
  id: string;
  parent_id: string;
  snapshot_id: ColumnType<string | null, string | null | undefined, string | null>;
  source: string;
  expires_at: ColumnType<string, string | Date, string | Date>;
  created_at: ColumnType<string, string | Date | undefined, string | Date>;
}

/** Every table of the public schema, by name. */
export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  enablebanking_applications: EnablebankingApplicationsTable;
  enablebanking_authorizations: EnablebankingAuthorizationsTable;
  enablebanking_daily_access: EnablebankingDailyAccessTable;
  enablebanking_payments: EnablebankingPaymentsTable;
  enablebanking_session_accounts: EnablebankingSessionAccountsTable;
  enablebanking_sessions: EnablebankingSessionsTable;
  events: EventsTable;
  fx_rate_pins: FxRatePinsTable;
  gocardless_accounts: GocardlessAccountsTable;
  gocardless_agreements: GocardlessAgreementsTable;
  gocardless_daily_access: GocardlessDailyAccessTable;
  gocardless_requisitions: GocardlessRequisitionsTable;
  password_guesses: PasswordGuessesTable;
  payment_files: PaymentFilesTable;
  payments: PaymentsTable;
  plaid_items: PlaidItemsTable;
  plaid_signing_keys: PlaidSigningKeysTable;
  rate_limits: RateLimitsTable;
  refresh_tokens: RefreshTokensTable;
  schedule_runs: ScheduleRunsTable;
  schedules: SchedulesTable;
  simplefin_claims: SimplefinClaimsTable;
  transactions: TransactionsTable;
  users: UsersTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  webhooks: WebhooksTable;
  worker_heartbeats: WorkerHeartbeatsTable;
  world_snapshot_accounts: WorldSnapshotAccountsTable;
  world_snapshot_api_keys: WorldSnapshotApiKeysTable;
  world_snapshot_fx_rate_pins: WorldSnapshotFxRatePinsTable;
  world_snapshot_payment_files: WorldSnapshotPaymentFilesTable;
  world_snapshot_payments: WorldSnapshotPaymentsTable;
  world_snapshot_schedule_runs: WorldSnapshotScheduleRunsTable;
  world_snapshot_schedules: WorldSnapshotSchedulesTable;
  world_snapshot_transactions: WorldSnapshotTransactionsTable;
  world_snapshot_webhooks: WorldSnapshotWebhooksTable;
  world_snapshots: WorldSnapshotsTable;
  worlds: WorldsTable;
}

/** The migrations this file was rendered from, in order: migrations/index.ts must list exactly these. */
export type RenderedMigrations = readonly [
  '20261122000000-initial',
  '20261122010000-ledger-limits',
  '20261122020000-webhook-deliveries',
  '20261122040000-rate-limits',
  '20261122050000-transaction-owner',
  '20261122060000-account-transaction-count',
  '20261123020000-transaction-lifecycle',
  '20261123030000-event-log',
  '20261123040000-clock-and-schedules',
  '20261124010000-simplefin',
  '20261124020000-webhook-rotation-and-cycles',
  '20261124030000-transaction-version-raised',
  '20261124040000-transaction-request-fingerprint',
  '20261125000000-wall-clock',
  '20261125010000-plaid-items',
  '20261125020000-plaid-webhooks',
  '20261125030000-gocardless',
  '20261125030000-password-guesses',
  '20261126010000-worlds',
  '20261126020000-webhook-faults',
  '20261126030000-gocardless-consent-steps',
  '20261126031000-plaid-signing-key-rotation',
  '20261126041700-snapshot-webhooks-and-keys',
  '20261126044500-events-by-transaction',
  '20261126045200-webhook-attempt-exchange',
  '20261126065000-snapshot-include',
  '20261126065100-world-refresh-tokens',
  '20261126070700-webhook-attempt-retention',
  '20261129080000-account-currencies',
  '20261129103031-fx-rates',
  '20261129103038-enablebanking',
  '20261129103059-payments',
  '20261129104104-card-conversions',
  '20261129113616-conversion-version-rule',
  '20261129120030-payment-files',
  '20261129121300-payment-links-version-rule',
  '20261129130435-payment-link-indexes',
  '20261129135950-enablebanking-payments',
  '20261129140002-snapshot-payments',
  '20261129150245-standing-orders',
  '20261129150521-requisition-api-key',
  '20261129173000-enablebanking-daily-access',
  '20261129174641-transactions-posting-order',
];
