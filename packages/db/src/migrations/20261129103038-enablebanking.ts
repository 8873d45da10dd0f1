import { Migration } from '@mikro-orm/migrations';

/**
 * The Enable Banking face (docs/faces/enablebanking.md). An application is registered by a world's
 * owner with its redirect URLs and an RSA public key (PEM; never a private key: when Sandbank makes
 * the pair it answers the private key once and keeps only the public one); the app signs its own
 * RS256 JWTs with `kid` = the application's id. An authorization is one `POST /auth`: the ASPSP, the
 * app's `state` and `redirect_url`, the consent's `valid_until` and whether it covers balances and
 * transactions (`access.balances`, `access.transactions`); the owner approves (with the
 * accounts picked) or refuses it, and an approved one carries a one-time `code` (kept as its
 * SHA-256) that `POST /sessions` exchanges for a session. A session belongs to the application and
 * the user; each of its accounts gets a uid of its own (`enablebanking_session_accounts.uid`), as
 * Enable Banking gives each session's accounts new ids. Validity is on the world's clock.
 */
export class Migration20261129103038Enablebanking extends Migration {
  override name = '20261129103038-enablebanking';

  override up(): void {
    this.addSql(`
      create table enablebanking_applications (
        id uuid primary key,
        user_id uuid not null references users (id) on delete cascade,
        name text not null,
        redirect_urls text[] not null,
        public_key text not null,
        created_at timestamptz(3) not null,
        constraint enablebanking_applications_redirects check (cardinality(redirect_urls) between 1 and 10)
      );
      create index enablebanking_applications_user_idx on enablebanking_applications (user_id);

      create table enablebanking_authorizations (
        id uuid primary key,
        application_id uuid not null references enablebanking_applications (id) on delete cascade,
        user_id uuid not null references users (id) on delete cascade,
        aspsp_name text not null,
        aspsp_country text not null,
        psu_type text not null,
        state text not null,
        redirect_url text not null,
        valid_until timestamptz(3) not null,
        balances boolean not null,
        transactions boolean not null,
        status text not null default 'pending',
        code_hash text unique,
        account_ids uuid[],
        created_at timestamptz(3) not null,
        decided_at timestamptz(3),
        constraint enablebanking_authorizations_status check (status in ('pending', 'approved', 'refused', 'used')),
        constraint enablebanking_authorizations_psu_type check (psu_type in ('personal', 'business'))
      );
      create index enablebanking_authorizations_user_idx on enablebanking_authorizations (user_id);
      create index enablebanking_authorizations_application_idx on enablebanking_authorizations (application_id);

      create table enablebanking_sessions (
        id uuid primary key,
        application_id uuid not null references enablebanking_applications (id) on delete cascade,
        user_id uuid not null references users (id) on delete cascade,
        authorization_id uuid not null unique references enablebanking_authorizations (id) on delete cascade,
        created_at timestamptz(3) not null,
        closed_at timestamptz(3)
      );
      create index enablebanking_sessions_user_idx on enablebanking_sessions (user_id);
      create index enablebanking_sessions_application_idx on enablebanking_sessions (application_id);

      create table enablebanking_session_accounts (
        uid uuid primary key,
        session_id uuid not null references enablebanking_sessions (id) on delete cascade,
        account_id uuid not null references accounts (id) on delete cascade,
        position integer not null,
        constraint enablebanking_session_accounts_once unique (session_id, account_id)
      );
      create index enablebanking_session_accounts_account_idx on enablebanking_session_accounts (account_id);
    `);
  }

  override down(): void {
    this.addSql(
      'drop table enablebanking_session_accounts; drop table enablebanking_sessions; drop table enablebanking_authorizations; drop table enablebanking_applications;',
    );
  }
}
