import { Migration } from '@mikro-orm/migrations';

/**
 * The initial schema. Invariants live in the database so no interleaving of requests can break
 * them: balances never below zero, one transaction per (account, externalTxnId), unique open
 * account names per user (case-insensitive), one delivery per (webhook, event).
 */
export class Migration20261122000000Initial extends Migration {
  override name = '20261122000000-initial';

  override up(): void {
    this.addSql(`
      create table users (
        id uuid primary key,
        email text not null,
        password_hash text not null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        constraint users_email_lowercase check (email = lower(email))
      );
      create unique index users_email_key on users (email);
      create index users_email_local_part_idx on users (split_part(email, '@', 1));

      create table refresh_tokens (
        id uuid primary key,
        family_id uuid not null,
        user_id uuid not null references users (id) on delete cascade,
        token_hash text not null,
        expires_at timestamptz(3) not null,
        used_at timestamptz(3),
        revoked_at timestamptz(3),
        created_at timestamptz(3) not null default now()
      );
      create unique index refresh_tokens_token_hash_key on refresh_tokens (token_hash);
      create index refresh_tokens_family_idx on refresh_tokens (family_id);

      create table accounts (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        name text not null,
        balance bigint not null default 0,
        currency text not null default 'PLN',
        status text not null default 'open',
        created_at timestamptz(3) not null default now(),
        closed_at timestamptz(3),
        constraint accounts_balance_non_negative check (balance >= 0),
        constraint accounts_currency_known check (currency in ('PLN')),
        constraint accounts_status_known check (status in ('open', 'closed')),
        constraint accounts_closed_at_matches check ((status = 'closed') = (closed_at is not null))
      );
      create unique index accounts_open_name_key on accounts (user_id, lower(name)) where status = 'open';
      create index accounts_user_idx on accounts (user_id, created_at, id);

      create table transactions (
        id uuid primary key,
        account_id uuid not null references accounts (id) on delete cascade,
        external_txn_id text not null,
        amount bigint not null,
        currency text not null,
        date timestamptz(3) not null,
        description text not null default '',
        raw jsonb not null,
        created_at timestamptz(3) not null default now(),
        constraint transactions_amount_non_zero check (amount <> 0)
      );
      create unique index transactions_external_txn_key on transactions (account_id, external_txn_id);
      create index transactions_history_idx on transactions (account_id, date desc, id desc);

      create table events (
        id uuid primary key,
        type text not null,
        user_id uuid not null references users (id) on delete cascade,
        payload jsonb not null,
        created_at timestamptz(3) not null default now(),
        relayed_at timestamptz(3)
      );
      create index events_unrelayed_idx on events (created_at, id) where relayed_at is null;

      create table webhooks (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        client_id text not null,
        url text not null,
        events text[] not null,
        secret_ciphertext text not null,
        secret_key_id text not null,
        status text not null default 'active',
        disabled_reason text,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        deleted_at timestamptz(3),
        constraint webhooks_status_known check (status in ('active', 'disabled'))
      );
      create index webhooks_user_client_idx on webhooks (user_id, client_id) where deleted_at is null;

      create table webhook_deliveries (
        id uuid primary key,
        webhook_id uuid not null references webhooks (id) on delete cascade,
        event_id uuid not null references events (id) on delete cascade,
        status text not null default 'pending',
        attempt_count integer not null default 0,
        next_attempt_at timestamptz(3),
        last_status_code integer,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        completed_at timestamptz(3),
        constraint webhook_deliveries_status_known check (status in ('pending', 'succeeded', 'failed'))
      );
      create unique index webhook_deliveries_webhook_event_key on webhook_deliveries (webhook_id, event_id);

      create table webhook_delivery_attempts (
        id uuid primary key,
        delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
        attempt integer not null,
        started_at timestamptz(3) not null,
        duration_ms integer not null,
        status_code integer,
        error text,
        next_attempt_at timestamptz(3)
      );
      create index webhook_delivery_attempts_delivery_idx on webhook_delivery_attempts (delivery_id, attempt);

      create table api_keys (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        name text not null,
        prefix text not null,
        key_hash text not null,
        created_at timestamptz(3) not null default now(),
        last_used_at timestamptz(3),
        expires_at timestamptz(3),
        revoked_at timestamptz(3)
      );
      create unique index api_keys_key_hash_key on api_keys (key_hash);
      create index api_keys_user_idx on api_keys (user_id, created_at);

      create table worker_heartbeats (
        worker_id text primary key,
        last_seen_at timestamptz(3) not null
      );
    `);
  }
}
