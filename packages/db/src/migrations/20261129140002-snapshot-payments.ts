import { Migration } from '@mikro-orm/migrations';

/**
 * A snapshot keeps the world's payments (docs/concepts/payments.md) and payment files with the rest of
 * its money: without them a fork or a restore kept a payment's pending debit (its hold) with no payment
 * to settle or release it. Numbered (`ord`) in the snapshot's one numbering, after its webhooks and API
 * keys; a payment names its accounts and file by their ords, and a transaction its payment
 * (`payment_ord`) and its transfer's other leg (`counterpart_ord`), so a fork maps every link by the
 * same expression as the other references (copy-world.ts). Snapshots taken before this migration have
 * no payments: their transactions lose the links, as they already had no payment rows.
 */
export class Migration20261129140002SnapshotPayments extends Migration {
  override name = '20261129140002-snapshot-payments';

  override up(): void {
    this.addSql(`
      create table world_snapshot_payment_files (
        snapshot_id uuid not null references world_snapshots (id) on delete cascade,
        ord integer not null,
        id uuid not null,
        message_id text not null,
        message_name_id text not null,
        file_created_at text not null,
        initiating_party_name text,
        number_of_transactions integer not null,
        control_sum text,
        blocks jsonb not null,
        created_at timestamptz(3) not null,
        primary key (snapshot_id, ord)
      );

      create table world_snapshot_payments (
        snapshot_id uuid not null references world_snapshots (id) on delete cascade,
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
        due_at timestamptz(3),
        accepted_at timestamptz(3),
        settled_at timestamptz(3),
        return_reason_code text,
        return_reason_message text,
        returned_at timestamptz(3),
        idempotency_key text,
        request_fingerprint text not null,
        payment_file_ord integer,
        payment_file_position integer,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        primary key (snapshot_id, ord)
      );
      -- A snapshot's transactions find their payment's ord by its original id.
      create index world_snapshot_payments_id_idx on world_snapshot_payments (snapshot_id, id);

      alter table world_snapshot_transactions add column payment_ord integer, add column counterpart_ord integer;
    `);
  }

  override down(): void {
    this.addSql(`
      alter table world_snapshot_transactions drop column counterpart_ord, drop column payment_ord;
      drop table world_snapshot_payments;
      drop table world_snapshot_payment_files;
    `);
  }
}
