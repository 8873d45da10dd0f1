import { Migration } from '@mikro-orm/migrations';

/**
 * Enable Banking's payment initiation (docs/faces/enablebanking.md#payments): one `POST /payments` is a
 * payment request of an application, waiting for the world's owner to authorise it on the consent page
 * (the sandbox ASPSP authorises at once). What the app asked for is kept as it asked it
 * (`payment_details`, its wire object) beside the fields the domain reads (minor units, the creditor,
 * the scheme). Authorised, it becomes a section-19 payment (`payment_id`), whose status the request's
 * status follows from then on; refused, it stays `refused`. `deleted_at`: the app removed it.
 */
export class Migration20261129135950EnablebankingPayments extends Migration {
  override name = '20261129135950-enablebanking-payments';

  override up(): void {
    this.addSql(`
      create table enablebanking_payments (
        id uuid primary key,
        application_id uuid not null references enablebanking_applications (id) on delete cascade,
        user_id uuid not null references users (id) on delete cascade,
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
        debtor_account_id uuid references accounts (id) on delete cascade,
        payment_details jsonb not null,
        status text not null default 'pending',
        payment_id uuid unique references payments (id) on delete set null,
        created_at timestamptz(3) not null,
        decided_at timestamptz(3),
        deleted_at timestamptz(3),
        constraint enablebanking_payments_status check (status in ('pending', 'authorised', 'refused')),
        constraint enablebanking_payments_decided check ((status = 'pending') = (decided_at is null)),
        constraint enablebanking_payments_amount check (amount > 0 and amount <= 1000000000000),
        constraint enablebanking_payments_psu_type check (psu_type in ('personal', 'business'))
      );
      create index enablebanking_payments_user_idx on enablebanking_payments (user_id);
      create index enablebanking_payments_application_idx on enablebanking_payments (application_id);
      create index enablebanking_payments_debtor_idx on enablebanking_payments (debtor_account_id) where debtor_account_id is not null;
    `);
  }

  override down(): void {
    this.addSql('drop table enablebanking_payments;');
  }
}
