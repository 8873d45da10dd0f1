-- The schema of Sandbank's database, rendered from a migrated database by packages/db/src/schema-reference.ts.
-- Do not edit: migrations change the schema; `pnpm --filter @sandbank/db schema` rewrites this file.

create table accounts (
  id uuid not null,
  user_id uuid not null,
  name text not null,
  balance bigint not null default 0,
  currency text not null default 'PLN'::text,
  status text not null default 'open'::text,
  created_at timestamp(3) with time zone not null default now(),
  closed_at timestamp(3) with time zone,
  transaction_count bigint not null default 0,
  held_amount bigint not null default 0,
  card_fx_margin numeric(6,5) not null default 0.02,
  constraint accounts_pkey PRIMARY KEY (id),
  constraint accounts_id_currency_key UNIQUE (id, currency),
  constraint accounts_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint accounts_available_non_negative CHECK ((balance - held_amount) >= 0),
  constraint accounts_balance_non_negative CHECK (balance >= 0),
  constraint accounts_balance_within_limit CHECK (balance <= '1000000000000000'::bigint),
  constraint accounts_card_fx_margin_range CHECK (card_fx_margin >= 0::numeric AND card_fx_margin <= 0.1),
  constraint accounts_closed_at_matches CHECK ((status = 'closed'::text) = (closed_at IS NOT NULL)),
  constraint accounts_currency_known CHECK (currency = ANY (ARRAY['PLN'::text, 'EUR'::text, 'USD'::text, 'GBP'::text, 'CHF'::text, 'CZK'::text, 'SEK'::text, 'NOK'::text, 'DKK'::text, 'HUF'::text, 'JPY'::text, 'KWD'::text])),
  constraint accounts_held_non_negative CHECK (held_amount >= 0),
  constraint accounts_status_known CHECK (status = ANY (ARRAY['open'::text, 'closed'::text]))
);

create table api_keys (
  id uuid not null,
  user_id uuid not null,
  name text not null,
  prefix text not null,
  key_hash text not null,
  created_at timestamp(3) with time zone not null default now(),
  last_used_at timestamp(3) with time zone,
  expires_at timestamp(3) with time zone,
  revoked_at timestamp(3) with time zone,
  constraint api_keys_pkey PRIMARY KEY (id),
  constraint api_keys_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

create table enablebanking_applications (
  id uuid not null,
  user_id uuid not null,
  name text not null,
  redirect_urls text[] not null,
  public_key text not null,
  created_at timestamp(3) with time zone not null,
  constraint enablebanking_applications_pkey PRIMARY KEY (id),
  constraint enablebanking_applications_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint enablebanking_applications_redirects CHECK (cardinality(redirect_urls) >= 1 AND cardinality(redirect_urls) <= 10)
);

create table enablebanking_authorizations (
  id uuid not null,
  application_id uuid not null,
  user_id uuid not null,
  aspsp_name text not null,
  aspsp_country text not null,
  psu_type text not null,
  state text not null,
  redirect_url text not null,
  valid_until timestamp(3) with time zone not null,
  balances boolean not null,
  transactions boolean not null,
  status text not null default 'pending'::text,
  code_hash text,
  account_ids uuid[],
  created_at timestamp(3) with time zone not null,
  decided_at timestamp(3) with time zone,
  constraint enablebanking_authorizations_pkey PRIMARY KEY (id),
  constraint enablebanking_authorizations_code_hash_key UNIQUE (code_hash),
  constraint enablebanking_authorizations_application_id_fkey FOREIGN KEY (application_id) REFERENCES enablebanking_applications(id) ON DELETE CASCADE,
  constraint enablebanking_authorizations_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint enablebanking_authorizations_psu_type CHECK (psu_type = ANY (ARRAY['personal'::text, 'business'::text])),
  constraint enablebanking_authorizations_status CHECK (status = ANY (ARRAY['pending'::text, 'approved'::text, 'refused'::text, 'used'::text]))
);

create table enablebanking_daily_access (
  uid uuid not null,
  scope text not null,
  day date not null,
  count integer not null,
  constraint enablebanking_daily_access_pkey PRIMARY KEY (uid, scope, day),
  constraint enablebanking_daily_access_uid_fkey FOREIGN KEY (uid) REFERENCES enablebanking_session_accounts(uid) ON DELETE CASCADE
);

create table enablebanking_payments (
  id uuid not null,
  application_id uuid not null,
  user_id uuid not null,
  aspsp_name text not null,
  aspsp_country text not null,
  psu_type text not null,
  payment_type text not null,
  scheme text not null,
  state text not null,
  redirect_url text not null,
  amount bigint not null,
  currency text not null,
  creditor_name text not null,
  creditor_iban text not null,
  remittance text not null,
  end_to_end_id text,
  requested_execution_date date,
  debtor_account_id uuid,
  payment_details jsonb not null,
  status text not null default 'pending'::text,
  payment_id uuid,
  created_at timestamp(3) with time zone not null,
  decided_at timestamp(3) with time zone,
  deleted_at timestamp(3) with time zone,
  constraint enablebanking_payments_pkey PRIMARY KEY (id),
  constraint enablebanking_payments_payment_id_key UNIQUE (payment_id),
  constraint enablebanking_payments_application_id_fkey FOREIGN KEY (application_id) REFERENCES enablebanking_applications(id) ON DELETE CASCADE,
  constraint enablebanking_payments_debtor_account_id_fkey FOREIGN KEY (debtor_account_id) REFERENCES accounts(id) ON DELETE CASCADE,
  constraint enablebanking_payments_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments(id) ON DELETE SET NULL,
  constraint enablebanking_payments_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint enablebanking_payments_amount CHECK (amount > 0 AND amount <= '1000000000000'::bigint),
  constraint enablebanking_payments_decided CHECK ((status = 'pending'::text) = (decided_at IS NULL)),
  constraint enablebanking_payments_psu_type CHECK (psu_type = ANY (ARRAY['personal'::text, 'business'::text])),
  constraint enablebanking_payments_status CHECK (status = ANY (ARRAY['pending'::text, 'authorised'::text, 'refused'::text]))
);

create table enablebanking_session_accounts (
  uid uuid not null,
  session_id uuid not null,
  account_id uuid not null,
  position integer not null,
  constraint enablebanking_session_accounts_pkey PRIMARY KEY (uid),
  constraint enablebanking_session_accounts_once UNIQUE (session_id, account_id),
  constraint enablebanking_session_accounts_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE,
  constraint enablebanking_session_accounts_session_id_fkey FOREIGN KEY (session_id) REFERENCES enablebanking_sessions(id) ON DELETE CASCADE
);

create table enablebanking_sessions (
  id uuid not null,
  application_id uuid not null,
  user_id uuid not null,
  authorization_id uuid not null,
  created_at timestamp(3) with time zone not null,
  closed_at timestamp(3) with time zone,
  constraint enablebanking_sessions_pkey PRIMARY KEY (id),
  constraint enablebanking_sessions_authorization_id_key UNIQUE (authorization_id),
  constraint enablebanking_sessions_application_id_fkey FOREIGN KEY (application_id) REFERENCES enablebanking_applications(id) ON DELETE CASCADE,
  constraint enablebanking_sessions_authorization_id_fkey FOREIGN KEY (authorization_id) REFERENCES enablebanking_authorizations(id) ON DELETE CASCADE,
  constraint enablebanking_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

create table events (
  id uuid not null,
  type text not null,
  user_id uuid not null,
  payload jsonb not null,
  created_at timestamp(3) with time zone not null default now(),
  relayed_at timestamp(3) with time zone,
  txid xid8 not null default pg_current_xact_id(),
  seq bigint not null,
  constraint events_pkey PRIMARY KEY (id),
  constraint events_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

create table fx_rate_pins (
  user_id uuid not null,
  day date not null,
  base text not null,
  quote text not null,
  rate numeric not null,
  created_at timestamp(3) with time zone not null default now(),
  constraint fx_rate_pins_pkey PRIMARY KEY (user_id, day, base, quote),
  constraint fx_rate_pins_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint fx_rate_pins_pair CHECK (base <> quote AND (base = ANY (ARRAY['PLN'::text, 'EUR'::text, 'USD'::text, 'GBP'::text, 'CHF'::text, 'CZK'::text, 'SEK'::text, 'NOK'::text, 'DKK'::text, 'HUF'::text, 'JPY'::text, 'KWD'::text])) AND (quote = ANY (ARRAY['PLN'::text, 'EUR'::text, 'USD'::text, 'GBP'::text, 'CHF'::text, 'CZK'::text, 'SEK'::text, 'NOK'::text, 'DKK'::text, 'HUF'::text, 'JPY'::text, 'KWD'::text]))),
  constraint fx_rate_pins_rate CHECK (rate > 0::numeric AND rate < '1000000000000'::bigint::numeric)
);

create table gocardless_accounts (
  id uuid not null,
  requisition_id uuid not null,
  account_id uuid not null,
  user_id uuid not null,
  position integer not null,
  created_at timestamp(3) with time zone not null,
  last_accessed timestamp(3) with time zone,
  constraint gocardless_accounts_pkey PRIMARY KEY (id),
  constraint gocardless_accounts_once UNIQUE (requisition_id, account_id),
  constraint gocardless_accounts_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE,
  constraint gocardless_accounts_requisition_id_fkey FOREIGN KEY (requisition_id) REFERENCES gocardless_requisitions(id) ON DELETE CASCADE,
  constraint gocardless_accounts_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

create table gocardless_agreements (
  id uuid not null,
  user_id uuid not null,
  institution_id text not null,
  max_historical_days integer not null,
  access_valid_for_days integer not null,
  access_scope text[] not null,
  created_at timestamp(3) with time zone not null,
  accepted_at timestamp(3) with time zone,
  constraint gocardless_agreements_pkey PRIMARY KEY (id),
  constraint gocardless_agreements_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint gocardless_agreements_days CHECK (max_historical_days >= 1 AND max_historical_days <= 730 AND access_valid_for_days >= 1 AND access_valid_for_days <= 180),
  constraint gocardless_agreements_scope CHECK (access_scope <@ ARRAY['balances'::text, 'details'::text, 'transactions'::text] AND cardinality(access_scope) > 0)
);

create table gocardless_daily_access (
  account_id uuid not null,
  scope text not null,
  day date not null,
  count integer not null,
  constraint gocardless_daily_access_pkey PRIMARY KEY (account_id, scope, day),
  constraint gocardless_daily_access_account_id_fkey FOREIGN KEY (account_id) REFERENCES gocardless_accounts(id) ON DELETE CASCADE
);

create table gocardless_requisitions (
  id uuid not null,
  user_id uuid not null,
  agreement_id uuid not null,
  institution_id text not null,
  redirect text not null,
  reference text not null,
  user_language text not null,
  status text not null default 'CR'::text,
  created_at timestamp(3) with time zone not null,
  decided_at timestamp(3) with time zone,
  step_at timestamp(3) with time zone not null,
  api_key_id uuid,
  constraint gocardless_requisitions_pkey PRIMARY KEY (id),
  constraint gocardless_requisitions_reference UNIQUE (user_id, reference),
  constraint gocardless_requisitions_agreement_id_fkey FOREIGN KEY (agreement_id) REFERENCES gocardless_agreements(id) ON DELETE CASCADE,
  constraint gocardless_requisitions_api_key_id_fkey FOREIGN KEY (api_key_id) REFERENCES api_keys(id) ON DELETE SET NULL,
  constraint gocardless_requisitions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint gocardless_requisitions_status CHECK (status = ANY (ARRAY['CR'::text, 'GC'::text, 'SA'::text, 'LN'::text, 'RJ'::text]))
);

create table password_guesses (
  key character varying(255) not null,
  in_flight integer not null default 0,
  failed integer not null default 0,
  blocked_until bigint,
  expire bigint not null,
  constraint password_guesses_pkey PRIMARY KEY (key)
);

create table payment_files (
  id uuid not null,
  user_id uuid not null,
  message_id text not null,
  message_name_id text not null,
  file_created_at text not null,
  initiating_party_name text,
  number_of_transactions integer not null,
  control_sum text,
  blocks jsonb not null,
  created_at timestamp(3) with time zone not null,
  constraint payment_files_pkey PRIMARY KEY (id),
  constraint payment_files_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint payment_files_message_id_length CHECK (char_length(message_id) >= 1 AND char_length(message_id) <= 35),
  constraint payment_files_message_name_known CHECK (message_name_id = ANY (ARRAY['pain.001.001.09'::text, 'pain.001.001.03'::text])),
  constraint payment_files_transactions_bounds CHECK (number_of_transactions >= 1 AND number_of_transactions <= 10000)
);

create table payments (
  id uuid not null,
  user_id uuid not null,
  from_account_id uuid not null,
  currency text not null,
  to_account_id uuid,
  counterparty_name text,
  counterparty_iban text,
  amount bigint not null,
  credit_amount bigint,
  credit_currency text,
  scheme text not null,
  status text not null,
  reason_code text,
  reason_message text,
  end_to_end_id text not null,
  description text not null default ''::text,
  requested_execution_date date,
  due_at timestamp(3) with time zone,
  accepted_at timestamp(3) with time zone,
  settled_at timestamp(3) with time zone,
  return_reason_code text,
  return_reason_message text,
  returned_at timestamp(3) with time zone,
  idempotency_key text,
  request_fingerprint text not null,
  created_at timestamp(3) with time zone not null,
  updated_at timestamp(3) with time zone not null,
  payment_file_id uuid,
  payment_file_position integer,
  constraint payments_pkey PRIMARY KEY (id),
  constraint payments_from_account_currency_fkey FOREIGN KEY (from_account_id, currency) REFERENCES accounts(id, currency) ON DELETE CASCADE,
  constraint payments_payment_file_id_fkey FOREIGN KEY (payment_file_id) REFERENCES payment_files(id) ON DELETE CASCADE,
  constraint payments_to_account_id_fkey FOREIGN KEY (to_account_id) REFERENCES accounts(id) ON DELETE CASCADE,
  constraint payments_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint payments_accepted CHECK ((status = ANY (ARRAY['ACTC'::text, 'ACSP'::text, 'ACSC'::text])) <= (accepted_at IS NOT NULL)),
  constraint payments_amount_bounds CHECK (amount > 0 AND amount <= '1000000000000'::bigint),
  constraint payments_counterparty_iban_format CHECK (counterparty_iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$'::text),
  constraint payments_credit_amount CHECK ((credit_amount IS NULL) = (credit_currency IS NULL) AND (credit_amount IS NULL OR credit_amount > 0)),
  constraint payments_end_to_end_id_length CHECK (char_length(end_to_end_id) >= 1 AND char_length(end_to_end_id) <= 35),
  constraint payments_file_position CHECK ((payment_file_id IS NULL) = (payment_file_position IS NULL) AND payment_file_position >= 0),
  constraint payments_final_not_due CHECK ((status <> ALL (ARRAY['RJCT'::text, 'CANC'::text])) OR due_at IS NULL),
  constraint payments_not_to_itself CHECK (to_account_id IS DISTINCT FROM from_account_id),
  constraint payments_one_destination CHECK ((scheme = 'internal'::text) = (to_account_id IS NOT NULL) AND (to_account_id IS NULL) = (counterparty_iban IS NOT NULL) AND (counterparty_iban IS NULL) = (counterparty_name IS NULL)),
  constraint payments_reason_code_format CHECK (reason_code ~ '^[A-Z0-9]{4}$'::text AND return_reason_code ~ '^[A-Z0-9]{4}$'::text),
  constraint payments_reason_when_rejected CHECK ((status = 'RJCT'::text) = (reason_code IS NOT NULL) AND (reason_code IS NULL) = (reason_message IS NULL)),
  constraint payments_returned_when_settled CHECK ((returned_at IS NULL) = (return_reason_code IS NULL) AND (return_reason_code IS NULL) = (return_reason_message IS NULL) AND (returned_at IS NULL OR status = 'ACSC'::text)),
  constraint payments_scheme_currency CHECK (scheme = 'internal'::text OR (scheme = ANY (ARRAY['elixir'::text, 'express_elixir'::text])) AND currency = 'PLN'::text OR (scheme = ANY (ARRAY['sepa'::text, 'sepa_instant'::text])) AND currency = 'EUR'::text),
  constraint payments_scheme_known CHECK (scheme = ANY (ARRAY['internal'::text, 'elixir'::text, 'express_elixir'::text, 'sepa'::text, 'sepa_instant'::text])),
  constraint payments_settled_when_acsc CHECK ((status = 'ACSC'::text) = (settled_at IS NOT NULL)),
  constraint payments_status_known CHECK (status = ANY (ARRAY['RCVD'::text, 'ACTC'::text, 'ACSP'::text, 'ACSC'::text, 'RJCT'::text, 'CANC'::text]))
);

create table plaid_items (
  id uuid not null,
  user_id uuid not null,
  public_token_hash text not null,
  public_token_expires_at timestamp(3) with time zone not null,
  access_token_hash text,
  account_ids uuid[] not null,
  webhook_url text,
  state text not null default 'good'::text,
  created_at timestamp(3) with time zone not null,
  removed_at timestamp(3) with time zone,
  constraint plaid_items_pkey PRIMARY KEY (id),
  constraint plaid_items_access_token_hash_key UNIQUE (access_token_hash),
  constraint plaid_items_public_token_hash_key UNIQUE (public_token_hash),
  constraint plaid_items_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint plaid_items_state_known CHECK (state = ANY (ARRAY['good'::text, 'login_required'::text]))
);

create table plaid_signing_keys (
  kid text not null,
  private_key_ciphertext text not null,
  private_key_key_id text not null,
  public_jwk jsonb not null,
  created_at timestamp(3) with time zone not null default now(),
  expired_at timestamp(3) with time zone,
  retired_at timestamp(3) with time zone,
  constraint plaid_signing_keys_pkey PRIMARY KEY (kid),
  constraint plaid_signing_keys_expiry CHECK ((retired_at IS NULL) = (expired_at IS NULL) AND (expired_at IS NULL OR expired_at >= retired_at))
);

create table rate_limits (
  key character varying(255) not null,
  points integer not null default 0,
  expire bigint,
  constraint rate_limits_pkey PRIMARY KEY (key)
);

create table refresh_tokens (
  id uuid not null,
  family_id uuid not null,
  user_id uuid not null,
  token_hash text not null,
  expires_at timestamp(3) with time zone not null,
  used_at timestamp(3) with time zone,
  revoked_at timestamp(3) with time zone,
  created_at timestamp(3) with time zone not null default now(),
  world boolean not null default false,
  constraint refresh_tokens_pkey PRIMARY KEY (id),
  constraint refresh_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

create table schedule_runs (
  schedule_id uuid not null,
  n integer not null,
  due_at timestamp(3) with time zone not null,
  transaction_id uuid,
  failure_code text,
  failure_message text,
  created_at timestamp(3) with time zone not null default now(),
  constraint schedule_runs_pkey PRIMARY KEY (schedule_id, n),
  constraint schedule_runs_schedule_id_fkey FOREIGN KEY (schedule_id) REFERENCES schedules(id) ON DELETE CASCADE,
  constraint schedule_runs_transaction_id_fkey FOREIGN KEY (transaction_id) REFERENCES transactions(id) ON DELETE SET NULL,
  constraint schedule_runs_one_outcome CHECK (transaction_id IS NULL OR failure_code IS NULL)
);

create table schedules (
  id uuid not null,
  user_id uuid not null,
  account_id uuid not null,
  amount bigint not null,
  description text not null,
  merchant text,
  category text,
  rrule text not null,
  timezone text not null,
  start_at timestamp(3) with time zone not null,
  status text not null default 'posted'::text,
  settle_after text,
  state text not null default 'active'::text,
  next_run_at timestamp(3) with time zone,
  next_run_n integer not null default 1,
  created_at timestamp(3) with time zone not null,
  updated_at timestamp(3) with time zone not null default now(),
  payment jsonb,
  constraint schedules_pkey PRIMARY KEY (id),
  constraint schedules_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE,
  constraint schedules_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint schedules_amount_bounds CHECK (amount <> 0 AND abs(amount) <= '1000000000000'::bigint),
  constraint schedules_next_run_when_not_ended CHECK ((state = 'ended'::text) = (next_run_at IS NULL)),
  constraint schedules_run_n_positive CHECK (next_run_n >= 1),
  constraint schedules_settle_only_pending CHECK (status = 'pending'::text OR settle_after IS NULL),
  constraint schedules_state_known CHECK (state = ANY (ARRAY['active'::text, 'paused'::text, 'ended'::text])),
  constraint schedules_status_known CHECK (status = ANY (ARRAY['pending'::text, 'posted'::text]))
);

create table simplefin_claims (
  code_hash text not null,
  user_id uuid not null,
  expires_at timestamp(3) with time zone not null,
  claimed_at timestamp(3) with time zone,
  api_key_id uuid,
  created_at timestamp(3) with time zone not null default now(),
  constraint simplefin_claims_pkey PRIMARY KEY (code_hash),
  constraint simplefin_claims_api_key_id_fkey FOREIGN KEY (api_key_id) REFERENCES api_keys(id) ON DELETE SET NULL,
  constraint simplefin_claims_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

create table transactions (
  id uuid not null,
  account_id uuid not null,
  external_txn_id text not null,
  amount bigint not null,
  currency text not null,
  date timestamp(3) with time zone not null,
  description text not null default ''::text,
  raw jsonb not null,
  created_at timestamp(3) with time zone not null default now(),
  user_id uuid not null,
  status text not null default 'posted'::text,
  posted_at timestamp(3) with time zone,
  version integer not null default 1,
  merchant text,
  category text,
  reversal_of uuid,
  reversed_amount bigint not null default 0,
  settle_at timestamp(3) with time zone,
  expire_at timestamp(3) with time zone,
  updated_at timestamp(3) with time zone not null default now(),
  request_fingerprint text,
  posted_from_pending boolean not null default false,
  payment_id uuid,
  counterpart_transaction_id uuid,
  original_amount bigint,
  original_currency text,
  exchange_rate numeric,
  constraint transactions_pkey PRIMARY KEY (id),
  constraint transactions_account_currency_fkey FOREIGN KEY (account_id, currency) REFERENCES accounts(id, currency) ON DELETE CASCADE,
  constraint transactions_counterpart_transaction_id_fkey FOREIGN KEY (counterpart_transaction_id) REFERENCES transactions(id) ON DELETE SET NULL,
  constraint transactions_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments(id) ON DELETE SET NULL,
  constraint transactions_reversal_of_fkey FOREIGN KEY (reversal_of) REFERENCES transactions(id),
  constraint transactions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint transactions_amount_non_zero CHECK (amount <> 0),
  constraint transactions_category_known CHECK (category = ANY (ARRAY['groceries'::text, 'transport'::text, 'fuel'::text, 'utilities'::text, 'telecom'::text, 'subscriptions'::text, 'restaurants'::text, 'health'::text, 'shopping'::text, 'housing'::text, 'salary'::text, 'transfer'::text, 'cash'::text, 'entertainment'::text, 'education'::text, 'other'::text])),
  constraint transactions_conversion_sane CHECK (original_amount IS NULL OR sign(original_amount::double precision) = sign(amount::double precision) AND exchange_rate > 0::numeric AND original_currency <> currency AND (original_currency = ANY (ARRAY['PLN'::text, 'EUR'::text, 'USD'::text, 'GBP'::text, 'CHF'::text, 'CZK'::text, 'SEK'::text, 'NOK'::text, 'DKK'::text, 'HUF'::text, 'JPY'::text, 'KWD'::text]))),
  constraint transactions_conversion_whole CHECK ((original_amount IS NULL) = (original_currency IS NULL) AND (original_amount IS NULL) = (exchange_rate IS NULL)),
  constraint transactions_counterpart_not_self CHECK (counterpart_transaction_id <> id),
  constraint transactions_due_only_pending CHECK (status = 'pending'::text OR settle_at IS NULL AND expire_at IS NULL),
  constraint transactions_posted_at_matches CHECK ((status = 'posted'::text) = (posted_at IS NOT NULL)),
  constraint transactions_reversal_posted CHECK (reversal_of IS NULL OR status = 'posted'::text),
  constraint transactions_reversed_within_amount CHECK (reversed_amount >= 0 AND reversed_amount <= abs(amount)),
  constraint transactions_status_known CHECK (status = ANY (ARRAY['pending'::text, 'posted'::text, 'voided'::text])),
  constraint transactions_version_positive CHECK (version >= 1)
);

create table users (
  id uuid not null,
  email text not null,
  password_hash text not null,
  created_at timestamp(3) with time zone not null default now(),
  updated_at timestamp(3) with time zone not null default now(),
  sync_epoch integer not null default 0,
  clock_offset_ms bigint not null default 0,
  fx_seed integer,
  constraint users_pkey PRIMARY KEY (id),
  constraint users_clock_offset_non_negative CHECK (clock_offset_ms >= 0),
  constraint users_email_lowercase CHECK (email = lower(email)),
  constraint users_fx_seed_range CHECK (fx_seed >= 0)
);

create table webhook_deliveries (
  id uuid not null,
  webhook_id uuid not null,
  event_id uuid not null,
  status text not null default 'pending'::text,
  attempt_count integer not null default 0,
  next_attempt_at timestamp(3) with time zone,
  last_status_code integer,
  created_at timestamp(3) with time zone not null default now(),
  updated_at timestamp(3) with time zone not null default now(),
  completed_at timestamp(3) with time zone,
  cycle integer not null default 1,
  constraint webhook_deliveries_pkey PRIMARY KEY (id),
  constraint webhook_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES events(id) ON DELETE CASCADE,
  constraint webhook_deliveries_webhook_id_fkey FOREIGN KEY (webhook_id) REFERENCES webhooks(id) ON DELETE CASCADE,
  constraint webhook_deliveries_cycle_positive CHECK (cycle >= 1),
  constraint webhook_deliveries_status_known CHECK (status = ANY (ARRAY['pending'::text, 'succeeded'::text, 'failed'::text]))
);

create table webhook_delivery_attempts (
  id uuid not null,
  delivery_id uuid not null,
  attempt integer not null,
  started_at timestamp(3) with time zone not null,
  duration_ms integer not null,
  status_code integer,
  error text,
  next_attempt_at timestamp(3) with time zone,
  faults jsonb not null default '[]'::jsonb,
  request_url text,
  request_headers jsonb,
  request_body text,
  response_status integer,
  response_headers jsonb,
  response_body text,
  response_body_truncated boolean not null default false,
  exchange_removed_at timestamp(3) with time zone,
  constraint webhook_delivery_attempts_pkey PRIMARY KEY (id),
  constraint webhook_delivery_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries(id) ON DELETE CASCADE
);

create table webhooks (
  id uuid not null,
  user_id uuid not null,
  client_id text not null,
  url text not null,
  events text[] not null,
  secret_ciphertext text not null,
  secret_key_id text not null,
  status text not null default 'active'::text,
  disabled_reason text,
  created_at timestamp(3) with time zone not null default now(),
  updated_at timestamp(3) with time zone not null default now(),
  deleted_at timestamp(3) with time zone,
  previous_secret_ciphertext text,
  previous_secret_key_id text,
  secret_rotated_at timestamp(3) with time zone,
  plaid_item_id uuid,
  faults jsonb,
  constraint webhooks_pkey PRIMARY KEY (id),
  constraint webhooks_plaid_item_id_fkey FOREIGN KEY (plaid_item_id) REFERENCES plaid_items(id) ON DELETE CASCADE,
  constraint webhooks_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint webhooks_status_known CHECK (status = ANY (ARRAY['active'::text, 'disabled'::text]))
);

create table worker_heartbeats (
  worker_id text not null,
  last_seen_at timestamp(3) with time zone not null,
  constraint worker_heartbeats_pkey PRIMARY KEY (worker_id)
);

create table world_snapshot_accounts (
  snapshot_id uuid not null,
  ord integer not null,
  id uuid not null,
  name text not null,
  balance bigint not null,
  currency text not null,
  status text not null,
  created_at timestamp(3) with time zone not null,
  closed_at timestamp(3) with time zone,
  transaction_count bigint not null,
  held_amount bigint not null,
  card_fx_margin numeric(6,5) not null default 0.02,
  constraint world_snapshot_accounts_pkey PRIMARY KEY (snapshot_id, ord),
  constraint world_snapshot_accounts_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES world_snapshots(id) ON DELETE CASCADE
);

create table world_snapshot_api_keys (
  snapshot_id uuid not null,
  ord integer not null,
  id uuid not null,
  name text not null,
  created_at timestamp(3) with time zone not null,
  expires_at timestamp(3) with time zone,
  constraint world_snapshot_api_keys_pkey PRIMARY KEY (snapshot_id, ord),
  constraint world_snapshot_api_keys_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES world_snapshots(id) ON DELETE CASCADE
);

create table world_snapshot_fx_rate_pins (
  snapshot_id uuid not null,
  day date not null,
  base text not null,
  quote text not null,
  rate numeric not null,
  constraint world_snapshot_fx_rate_pins_pkey PRIMARY KEY (snapshot_id, day, base, quote),
  constraint world_snapshot_fx_rate_pins_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES world_snapshots(id) ON DELETE CASCADE
);

create table world_snapshot_payment_files (
  snapshot_id uuid not null,
  ord integer not null,
  id uuid not null,
  message_id text not null,
  message_name_id text not null,
  file_created_at text not null,
  initiating_party_name text,
  number_of_transactions integer not null,
  control_sum text,
  blocks jsonb not null,
  created_at timestamp(3) with time zone not null,
  constraint world_snapshot_payment_files_pkey PRIMARY KEY (snapshot_id, ord),
  constraint world_snapshot_payment_files_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES world_snapshots(id) ON DELETE CASCADE
);

create table world_snapshot_payments (
  snapshot_id uuid not null,
  ord integer not null,
  id uuid not null,
  from_account_ord integer not null,
  currency text not null,
  to_account_ord integer,
  counterparty_name text,
  counterparty_iban text,
  amount bigint not null,
  credit_amount bigint,
  credit_currency text,
  scheme text not null,
  status text not null,
  reason_code text,
  reason_message text,
  end_to_end_id text not null,
  description text not null,
  requested_execution_date date,
  due_at timestamp(3) with time zone,
  accepted_at timestamp(3) with time zone,
  settled_at timestamp(3) with time zone,
  return_reason_code text,
  return_reason_message text,
  returned_at timestamp(3) with time zone,
  idempotency_key text,
  request_fingerprint text not null,
  payment_file_ord integer,
  payment_file_position integer,
  created_at timestamp(3) with time zone not null,
  updated_at timestamp(3) with time zone not null,
  constraint world_snapshot_payments_pkey PRIMARY KEY (snapshot_id, ord),
  constraint world_snapshot_payments_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES world_snapshots(id) ON DELETE CASCADE
);

create table world_snapshot_schedule_runs (
  snapshot_id uuid not null,
  schedule_ord integer not null,
  schedule_id uuid not null,
  n integer not null,
  due_at timestamp(3) with time zone not null,
  transaction_ord integer,
  transaction_id uuid,
  failure_code text,
  failure_message text,
  created_at timestamp(3) with time zone not null,
  constraint world_snapshot_schedule_runs_pkey PRIMARY KEY (snapshot_id, schedule_ord, n),
  constraint world_snapshot_schedule_runs_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES world_snapshots(id) ON DELETE CASCADE
);

create table world_snapshot_schedules (
  snapshot_id uuid not null,
  ord integer not null,
  id uuid not null,
  account_ord integer not null,
  account_id uuid not null,
  amount bigint not null,
  description text not null,
  merchant text,
  category text,
  rrule text not null,
  timezone text not null,
  start_at timestamp(3) with time zone not null,
  status text not null,
  settle_after text,
  state text not null,
  next_run_at timestamp(3) with time zone,
  next_run_n integer not null,
  created_at timestamp(3) with time zone not null,
  payment jsonb,
  constraint world_snapshot_schedules_pkey PRIMARY KEY (snapshot_id, ord),
  constraint world_snapshot_schedules_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES world_snapshots(id) ON DELETE CASCADE
);

create table world_snapshot_transactions (
  snapshot_id uuid not null,
  ord integer not null,
  id uuid not null,
  account_ord integer not null,
  account_id uuid not null,
  external_txn_id text not null,
  schedule_ord integer,
  amount bigint not null,
  currency text not null,
  date timestamp(3) with time zone not null,
  description text not null,
  raw jsonb not null,
  status text not null,
  posted_at timestamp(3) with time zone,
  version integer not null,
  merchant text,
  category text,
  reversal_ord integer,
  reversal_of uuid,
  reversed_amount bigint not null,
  settle_at timestamp(3) with time zone,
  expire_at timestamp(3) with time zone,
  created_at timestamp(3) with time zone not null,
  request_fingerprint text,
  posted_from_pending boolean not null,
  original_amount bigint,
  original_currency text,
  exchange_rate numeric,
  payment_ord integer,
  counterpart_ord integer,
  constraint world_snapshot_transactions_pkey PRIMARY KEY (snapshot_id, ord),
  constraint world_snapshot_transactions_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES world_snapshots(id) ON DELETE CASCADE
);

create table world_snapshot_webhooks (
  snapshot_id uuid not null,
  ord integer not null,
  id uuid not null,
  client_id text not null,
  url text not null,
  events text[] not null,
  status text not null,
  disabled_reason text,
  faults jsonb,
  created_at timestamp(3) with time zone not null,
  constraint world_snapshot_webhooks_pkey PRIMARY KEY (snapshot_id, ord),
  constraint world_snapshot_webhooks_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES world_snapshots(id) ON DELETE CASCADE
);

create table world_snapshots (
  id uuid not null,
  user_id uuid not null,
  name text not null,
  taken_at timestamp(3) with time zone not null,
  clock_offset_ms bigint not null,
  accounts integer not null,
  transactions integer not null,
  schedules integer not null,
  created_at timestamp(3) with time zone not null,
  webhooks integer not null default 0,
  api_keys integer not null default 0,
  include text[] not null default '{}'::text[],
  fx_seed integer,
  constraint world_snapshots_pkey PRIMARY KEY (id),
  constraint world_snapshots_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint world_snapshots_include_known CHECK (include = '{}'::text[] OR include = '{webhooks}'::text[] OR include = '{apiKeys}'::text[] OR include = '{webhooks,apiKeys}'::text[])
);

create table worlds (
  id uuid not null,
  parent_id uuid not null,
  snapshot_id uuid,
  source text not null,
  expires_at timestamp(3) with time zone not null,
  created_at timestamp(3) with time zone not null default now(),
  constraint worlds_pkey PRIMARY KEY (id),
  constraint worlds_id_fkey FOREIGN KEY (id) REFERENCES users(id) ON DELETE CASCADE,
  constraint worlds_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES users(id) ON DELETE CASCADE,
  constraint worlds_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES world_snapshots(id) ON DELETE SET NULL,
  constraint worlds_not_own_parent CHECK (id <> parent_id),
  constraint worlds_source_known CHECK (source = ANY (ARRAY['snapshot'::text, 'scenario'::text]))
);

CREATE UNIQUE INDEX accounts_open_name_key ON accounts USING btree (user_id, lower(name)) WHERE (status = 'open'::text);
CREATE INDEX accounts_user_idx ON accounts USING btree (user_id, created_at, id);
CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys USING btree (key_hash);
CREATE INDEX api_keys_user_idx ON api_keys USING btree (user_id, created_at);
CREATE INDEX enablebanking_applications_user_idx ON enablebanking_applications USING btree (user_id);
CREATE INDEX enablebanking_authorizations_application_idx ON enablebanking_authorizations USING btree (application_id);
CREATE INDEX enablebanking_authorizations_user_idx ON enablebanking_authorizations USING btree (user_id);
CREATE INDEX enablebanking_payments_application_idx ON enablebanking_payments USING btree (application_id);
CREATE INDEX enablebanking_payments_debtor_idx ON enablebanking_payments USING btree (debtor_account_id) WHERE (debtor_account_id IS NOT NULL);
CREATE INDEX enablebanking_payments_user_idx ON enablebanking_payments USING btree (user_id);
CREATE INDEX enablebanking_session_accounts_account_idx ON enablebanking_session_accounts USING btree (account_id);
CREATE INDEX enablebanking_sessions_application_idx ON enablebanking_sessions USING btree (application_id);
CREATE INDEX enablebanking_sessions_user_idx ON enablebanking_sessions USING btree (user_id);
CREATE INDEX events_reversal_of_idx ON events USING btree (((payload #>> '{transaction,reversalOf}'::text[]))) WHERE ((payload #>> '{transaction,reversalOf}'::text[]) IS NOT NULL);
CREATE INDEX events_transaction_idx ON events USING btree (((payload #>> '{transaction,id}'::text[]))) WHERE ((payload #>> '{transaction,id}'::text[]) IS NOT NULL);
CREATE INDEX events_unrelayed_idx ON events USING btree (created_at, id) WHERE (relayed_at IS NULL);
CREATE INDEX events_user_log_idx ON events USING btree (user_id, txid, seq);
CREATE INDEX gocardless_accounts_account_idx ON gocardless_accounts USING btree (account_id);
CREATE INDEX gocardless_agreements_user_idx ON gocardless_agreements USING btree (user_id);
CREATE INDEX gocardless_requisitions_api_key_idx ON gocardless_requisitions USING btree (api_key_id) WHERE (api_key_id IS NOT NULL);
CREATE INDEX gocardless_requisitions_user_idx ON gocardless_requisitions USING btree (user_id);
CREATE INDEX password_guesses_expire_idx ON password_guesses USING btree (expire);
CREATE UNIQUE INDEX payment_files_message_id_key ON payment_files USING btree (user_id, message_id);
CREATE INDEX payments_due_idx ON payments USING btree (user_id, due_at) WHERE (due_at IS NOT NULL);
CREATE INDEX payments_due_world_idx ON payments USING btree (due_at) WHERE (due_at IS NOT NULL);
CREATE UNIQUE INDEX payments_file_position_key ON payments USING btree (payment_file_id, payment_file_position) WHERE (payment_file_id IS NOT NULL);
CREATE INDEX payments_from_account_idx ON payments USING btree (from_account_id);
CREATE UNIQUE INDEX payments_idempotency_key ON payments USING btree (user_id, idempotency_key) WHERE (idempotency_key IS NOT NULL);
CREATE INDEX payments_to_account_idx ON payments USING btree (to_account_id) WHERE (to_account_id IS NOT NULL);
CREATE INDEX payments_user_history_idx ON payments USING btree (user_id, created_at DESC, id DESC);
CREATE INDEX plaid_items_user_idx ON plaid_items USING btree (user_id);
CREATE UNIQUE INDEX plaid_signing_keys_one_current ON plaid_signing_keys USING btree ((true)) WHERE (retired_at IS NULL);
CREATE INDEX rate_limits_expire_idx ON rate_limits USING btree (expire);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens USING btree (family_id);
CREATE UNIQUE INDEX refresh_tokens_token_hash_key ON refresh_tokens USING btree (token_hash);
CREATE INDEX schedule_runs_transaction_idx ON schedule_runs USING btree (transaction_id) WHERE (transaction_id IS NOT NULL);
CREATE INDEX schedules_account_idx ON schedules USING btree (account_id);
CREATE INDEX schedules_due_idx ON schedules USING btree (user_id, next_run_at) WHERE (state = 'active'::text);
CREATE INDEX simplefin_claims_user_idx ON simplefin_claims USING btree (user_id);
CREATE INDEX transactions_counterpart_idx ON transactions USING btree (counterpart_transaction_id) WHERE (counterpart_transaction_id IS NOT NULL);
CREATE INDEX transactions_expire_due_idx ON transactions USING btree (expire_at) WHERE ((status = 'pending'::text) AND (expire_at IS NOT NULL));
CREATE UNIQUE INDEX transactions_external_txn_key ON transactions USING btree (account_id, external_txn_id);
CREATE INDEX transactions_history_idx ON transactions USING btree (account_id, date DESC, id DESC);
CREATE INDEX transactions_owner_history_idx ON transactions USING btree (user_id, date DESC, id DESC);
CREATE INDEX transactions_payment_idx ON transactions USING btree (payment_id) WHERE (payment_id IS NOT NULL);
CREATE UNIQUE INDEX transactions_payment_leg_key ON transactions USING btree (payment_id, ((amount > 0))) WHERE ((payment_id IS NOT NULL) AND (reversal_of IS NULL));
CREATE INDEX transactions_posting_order_idx ON transactions USING btree (account_id, posted_at, id) INCLUDE (amount) WHERE (status = 'posted'::text);
CREATE INDEX transactions_reversal_of_idx ON transactions USING btree (reversal_of) WHERE (reversal_of IS NOT NULL);
CREATE INDEX transactions_settle_due_idx ON transactions USING btree (settle_at) WHERE ((status = 'pending'::text) AND (settle_at IS NOT NULL));
CREATE INDEX transactions_user_due_idx ON transactions USING btree (user_id, LEAST(settle_at, expire_at)) WHERE ((status = 'pending'::text) AND ((settle_at IS NOT NULL) OR (expire_at IS NOT NULL)));
CREATE UNIQUE INDEX users_email_key ON users USING btree (email);
CREATE INDEX users_email_local_part_idx ON users USING btree (split_part(email, '@'::text, 1));
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries USING btree (event_id);
CREATE INDEX webhook_deliveries_history_idx ON webhook_deliveries USING btree (webhook_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX webhook_deliveries_webhook_event_key ON webhook_deliveries USING btree (webhook_id, event_id);
CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts USING btree (delivery_id, attempt);
CREATE INDEX webhook_delivery_attempts_exchange_kept_idx ON webhook_delivery_attempts USING btree (started_at) WHERE (request_url IS NOT NULL);
CREATE INDEX webhooks_active_user_idx ON webhooks USING btree (user_id) WHERE ((status = 'active'::text) AND (deleted_at IS NULL));
CREATE UNIQUE INDEX webhooks_plaid_item_key ON webhooks USING btree (plaid_item_id) WHERE (plaid_item_id IS NOT NULL);
CREATE INDEX webhooks_user_client_idx ON webhooks USING btree (user_id, client_id) WHERE (deleted_at IS NULL);
CREATE INDEX world_snapshot_payments_id_idx ON world_snapshot_payments USING btree (snapshot_id, id);
CREATE INDEX world_snapshots_user_idx ON world_snapshots USING btree (user_id, created_at DESC, id DESC);
CREATE INDEX worlds_expiry_idx ON worlds USING btree (expires_at);
CREATE INDEX worlds_parent_idx ON worlds USING btree (parent_id, created_at DESC, id DESC);
CREATE INDEX worlds_snapshot_idx ON worlds USING btree (snapshot_id) WHERE (snapshot_id IS NOT NULL);

CREATE OR REPLACE FUNCTION public.sandbank_wall_now()
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$select statement_timestamp()$function$;

CREATE OR REPLACE FUNCTION public.transactions_version_not_raised()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        raise exception 'transaction % changed without raising its version (%)', old.id, new.version
          using errcode = 'check_violation', constraint = 'transactions_version_raised';
      end $function$;

CREATE TRIGGER transactions_version_raised BEFORE UPDATE ON transactions FOR EACH ROW WHEN (((new.version < old.version) OR ((new.version = old.version) AND ((((((((((((((((((new.id IS DISTINCT FROM old.id) OR (new.account_id IS DISTINCT FROM old.account_id)) OR (new.external_txn_id IS DISTINCT FROM old.external_txn_id)) OR (new.amount IS DISTINCT FROM old.amount)) OR (new.currency IS DISTINCT FROM old.currency)) OR (new.date IS DISTINCT FROM old.date)) OR (new.description IS DISTINCT FROM old.description)) OR (new.raw IS DISTINCT FROM old.raw)) OR (new.status IS DISTINCT FROM old.status)) OR (new.posted_at IS DISTINCT FROM old.posted_at)) OR (new.merchant IS DISTINCT FROM old.merchant)) OR (new.category IS DISTINCT FROM old.category)) OR (new.reversal_of IS DISTINCT FROM old.reversal_of)) OR (new.original_amount IS DISTINCT FROM old.original_amount)) OR (new.original_currency IS DISTINCT FROM old.original_currency)) OR (new.exchange_rate IS DISTINCT FROM old.exchange_rate)) OR (COALESCE(new.payment_id, old.payment_id) IS DISTINCT FROM old.payment_id)) OR (COALESCE(new.counterpart_transaction_id, old.counterpart_transaction_id) IS DISTINCT FROM old.counterpart_transaction_id))))) EXECUTE FUNCTION transactions_version_not_raised();
