import { Migration } from '@mikro-orm/migrations';

/**
 * Payments (docs/concepts/payments.md): a record of money a user sends, between their own accounts
 * or to an IBAN outside the world, with its ISO 20022 status. The database keeps what it can:
 * the status and reason codes, a reason exactly when rejected, a settlement time exactly when
 * settled, the scheme's currency, one destination, and — on the transactions — at most one debit
 * leg and one credit leg per payment (besides returns), so no payment is ever booked twice.
 */
export class Migration20261129103059Payments extends Migration {
  override name = '20261129103059-payments';

  override up(): void {
    this.addSql(`
      create table payments (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        from_account_id uuid not null,
        currency text not null,
        to_account_id uuid references accounts (id) on delete cascade,
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
        description text not null default '',
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
        constraint payments_from_account_currency_fkey foreign key (from_account_id, currency)
          references accounts (id, currency) on delete cascade,
        constraint payments_status_known check (status in ('RCVD', 'ACTC', 'ACSP', 'ACSC', 'RJCT', 'CANC')),
        constraint payments_scheme_known check (scheme in ('internal', 'elixir', 'express_elixir', 'sepa', 'sepa_instant')),
        constraint payments_scheme_currency check (
          scheme = 'internal'
          or (scheme in ('elixir', 'express_elixir') and currency = 'PLN')
          or (scheme in ('sepa', 'sepa_instant') and currency = 'EUR')),
        constraint payments_one_destination check (
          (scheme = 'internal') = (to_account_id is not null)
          and (to_account_id is null) = (counterparty_iban is not null)
          and (counterparty_iban is null) = (counterparty_name is null)),
        constraint payments_not_to_itself check (to_account_id is distinct from from_account_id),
        constraint payments_amount_bounds check (amount > 0 and amount <= 1000000000000),
        constraint payments_credit_amount check (
          (credit_amount is null) = (credit_currency is null) and (credit_amount is null or credit_amount > 0)),
        constraint payments_reason_when_rejected check (
          (status = 'RJCT') = (reason_code is not null) and (reason_code is null) = (reason_message is null)),
        constraint payments_reason_code_format check (reason_code ~ '^[A-Z0-9]{4}$' and return_reason_code ~ '^[A-Z0-9]{4}$'),
        constraint payments_settled_when_acsc check ((status = 'ACSC') = (settled_at is not null)),
        constraint payments_accepted check ((status in ('ACTC', 'ACSP', 'ACSC')) <= (accepted_at is not null)),
        constraint payments_final_not_due check (status not in ('RJCT', 'CANC') or due_at is null),
        constraint payments_returned_when_settled check (
          (returned_at is null) = (return_reason_code is null)
          and (return_reason_code is null) = (return_reason_message is null)
          and (returned_at is null or status = 'ACSC')),
        constraint payments_end_to_end_id_length check (char_length(end_to_end_id) between 1 and 35),
        constraint payments_counterparty_iban_format check (counterparty_iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$')
      );
      create unique index payments_idempotency_key on payments (user_id, idempotency_key) where idempotency_key is not null;
      create index payments_user_history_idx on payments (user_id, created_at desc, id desc);
      create index payments_due_idx on payments (user_id, due_at) where due_at is not null;
      create index payments_due_world_idx on payments (due_at) where due_at is not null;

      alter table transactions add column payment_id uuid references payments (id) on delete set null;
      alter table transactions add column counterpart_transaction_id uuid references transactions (id) on delete set null;
      alter table transactions add constraint transactions_counterpart_not_self check (counterpart_transaction_id <> id);
      create index transactions_payment_idx on transactions (payment_id) where payment_id is not null;
      -- One debit and one credit per payment; returns (reversal_of set) come on top.
      create unique index transactions_payment_leg_key on transactions (payment_id, (amount > 0))
        where payment_id is not null and reversal_of is null;
    `);
  }

  override down(): void {
    this.addSql(`
      alter table transactions drop column counterpart_transaction_id;
      alter table transactions drop column payment_id;
      drop table payments;
    `);
  }
}
