import { Migration } from '@mikro-orm/migrations';

/**
 * Payment files (docs/guides/payment-files.md): an uploaded pain.001 as a record — its message id,
 * version, creation time and initiating party as written, and its payment-information blocks (one
 * file per MsgId and user) —
 * and each payment's place in it (payment_file_id and position, both set or both null), so the
 * pain.002 status report lists the payments in the file's order.
 */
export class Migration20261129120030PaymentFiles extends Migration {
  override name = '20261129120030-payment-files';

  override up(): void {
    this.addSql(`
      create table payment_files (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        message_id text not null,
        message_name_id text not null,
        file_created_at text not null,
        initiating_party_name text,
        number_of_transactions integer not null,
        control_sum text,
        blocks jsonb not null,
        created_at timestamp(3) with time zone not null,
        constraint payment_files_message_name_known check (message_name_id in ('pain.001.001.09', 'pain.001.001.03')),
        constraint payment_files_message_id_length check (char_length(message_id) between 1 and 35),
        constraint payment_files_transactions_bounds check (number_of_transactions between 1 and 10000)
      );
      -- A bank refuses a file it already has (the same MsgId from the same customer): a file sent twice never pays twice.
      create unique index payment_files_message_id_key on payment_files (user_id, message_id);

      alter table payments add column payment_file_id uuid references payment_files (id) on delete cascade;
      alter table payments add column payment_file_position integer;
      alter table payments add constraint payments_file_position check (
        (payment_file_id is null) = (payment_file_position is null) and payment_file_position >= 0);
      create unique index payments_file_position_key on payments (payment_file_id, payment_file_position)
        where payment_file_id is not null;
    `);
  }

  override down(): void {
    this.addSql(`
      alter table payments drop column payment_file_position;
      alter table payments drop column payment_file_id;
      drop table payment_files;
    `);
  }
}
