/**
 * The SQL of the Enable Banking face (docs/architecture.md, "The schema"): row types and one named
 * function per statement; `applications.ts`, `authorizations.ts`, `sessions.ts` and `payments.ts` keep the rules.
 * Every read of an authorization or a session names its application, so one application never sees
 * another's (nor another user's) resources.
 */
import type { EntityManager } from '@sandbank/db';
import { WORLD_NOW_SQL } from '../clock/clock.ts';

export interface ApplicationRow {
  id: string;
  user_id: string;
  name: string;
  redirect_urls: string[];
  public_key: string;
  created_at: Date | string;
}

const APPLICATION_COLUMNS = 'a.id, a.user_id, a.name, a.redirect_urls, a.public_key, a.created_at';

export async function insertApplication(
  tx: EntityManager,
  row: { id: string; userId: string; name: string; redirectUrls: string[]; publicKey: string; now: Date },
): Promise<ApplicationRow | undefined> {
  const [inserted] = await tx.execute<ApplicationRow[]>(
    `insert into enablebanking_applications as a (id, user_id, name, redirect_urls, public_key, created_at)
     values (?, ?, ?, ?::text[], ?, ?) returning ${APPLICATION_COLUMNS}`,
    [row.id, row.userId, row.name, toTextArray(row.redirectUrls), row.publicKey, row.now],
  );
  return inserted;
}

/** A page of the user's applications, newest first, and how many there are. */
export async function selectApplications(
  em: EntityManager,
  { userId, limit, offset }: { userId: string; limit: number; offset: number },
): Promise<{ rows: ApplicationRow[]; count: number }> {
  const rows = await em.execute<ApplicationRow[]>(
    `select ${APPLICATION_COLUMNS} from enablebanking_applications a where a.user_id = ?
      order by a.created_at desc, a.id desc limit ? offset ?`,
    [userId, limit, offset],
  );
  const [total] = await em.execute<{ n: string }[]>('select count(*) as n from enablebanking_applications where user_id = ?', [
    userId,
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

/** Removes an application of the user with its authorizations and sessions; the row removed, or undefined. */
export async function deleteApplication(em: EntityManager, userId: string, id: string): Promise<ApplicationRow | undefined> {
  const [row] = await em.execute<ApplicationRow[]>(
    `delete from enablebanking_applications a where a.id = ? and a.user_id = ? returning ${APPLICATION_COLUMNS}`,
    [id, userId],
  );
  return row;
}

/** An application with whether its world has ended (a removed world's credentials stop at once). */
export async function selectApplication(
  em: EntityManager,
  id: string,
): Promise<(ApplicationRow & { world_expired: boolean }) | undefined> {
  const [row] = await em.execute<(ApplicationRow & { world_expired: boolean })[]>(
    `select ${APPLICATION_COLUMNS},
        exists (select 1 from worlds w where w.id = a.user_id and w.expires_at <= sandbank_wall_now()) as world_expired
       from enablebanking_applications a where a.id = ?`,
    [id],
  );
  return row;
}

/** A PostgreSQL array literal of texts, each quoted (URLs may hold commas and braces). */
function toTextArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;
}

export interface AuthorizationRow {
  id: string;
  application_id: string;
  user_id: string;
  aspsp_name: string;
  aspsp_country: string;
  psu_type: 'personal' | 'business';
  state: string;
  redirect_url: string;
  valid_until: Date | string;
  balances: boolean;
  transactions: boolean;
  status: 'pending' | 'approved' | 'refused' | 'used';
  created_at: Date | string;
}

const AUTHORIZATION_COLUMNS =
  'id, application_id, user_id, aspsp_name, aspsp_country, psu_type, state, redirect_url, valid_until, balances, transactions, status, created_at';

export async function countAuthorizations(tx: EntityManager, applicationId: string): Promise<number> {
  const [row] = await tx.execute<{ n: string }[]>(
    'select count(*) as n from enablebanking_authorizations where application_id = ?',
    [applicationId],
  );
  return Number(row?.n ?? 0);
}

export async function insertAuthorization(
  tx: EntityManager,
  row: {
    id: string;
    applicationId: string;
    userId: string;
    aspspName: string;
    aspspCountry: string;
    psuType: string;
    state: string;
    redirectUrl: string;
    validUntil: Date;
    balances: boolean;
    transactions: boolean;
    now: Date;
  },
): Promise<void> {
  await tx.execute(
    `insert into enablebanking_authorizations
       (id, application_id, user_id, aspsp_name, aspsp_country, psu_type, state, redirect_url, valid_until, balances, transactions, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.applicationId,
      row.userId,
      row.aspspName,
      row.aspspCountry,
      row.psuType,
      row.state,
      row.redirectUrl,
      row.validUntil,
      row.balances,
      row.transactions,
      row.now,
    ],
  );
}

/**
 * Decides a pending authorization of the user: `approved` with its one-time code's hash and the
 * accounts picked (null: every open account), or `refused`. Conditional, so of two racing decisions
 * one wins; the row as decided, or undefined when it was not pending (or not the user's).
 */
export async function decidePendingAuthorization(
  tx: EntityManager,
  d: { userId: string; id: string; approve: boolean; codeHash: string | null; accountIds: string[] | null; now: Date },
): Promise<AuthorizationRow | undefined> {
  const picked = d.accountIds === null ? null : `{${d.accountIds.join(',')}}`;
  const [row] = await tx.execute<AuthorizationRow[]>(
    `update enablebanking_authorizations
        set status = ?, code_hash = ?, account_ids = ?::uuid[], decided_at = ?
      where id = ? and user_id = ? and status = 'pending'
     returning ${AUTHORIZATION_COLUMNS}`,
    [d.approve ? 'approved' : 'refused', d.codeHash, picked, d.now, d.id, d.userId],
  );
  return row;
}

/** An authorization of the user with its application's name, for the consent page; or undefined. */
export async function selectAuthorizationView(
  em: EntityManager,
  userId: string,
  id: string,
): Promise<(AuthorizationRow & { application_name: string }) | undefined> {
  const [row] = await em.execute<(AuthorizationRow & { application_name: string })[]>(
    `select z.id, z.application_id, z.user_id, z.aspsp_name, z.aspsp_country, z.psu_type, z.state, z.redirect_url, z.valid_until,
        z.balances, z.transactions, z.status, z.created_at, a.name as application_name
       from enablebanking_authorizations z join enablebanking_applications a on a.id = z.application_id
      where z.id = ? and z.user_id = ?`,
    [id, userId],
  );
  return row;
}

export async function selectUserAuthorization(
  em: EntityManager,
  userId: string,
  id: string,
): Promise<AuthorizationRow | undefined> {
  const [row] = await em.execute<AuthorizationRow[]>(
    `select ${AUTHORIZATION_COLUMNS} from enablebanking_authorizations where id = ? and user_id = ?`,
    [id, userId],
  );
  return row;
}

/** The open accounts among `accountIds` (null: all) of the user, oldest first. */
export async function selectOpenAccountIds(tx: EntityManager, userId: string, accountIds: string[] | null): Promise<string[]> {
  const picked = accountIds === null ? null : `{${accountIds.join(',')}}`;
  const rows = await tx.execute<{ id: string }[]>(
    `select a.id from accounts a
      where a.user_id = ? and a.status = 'open' and (?::uuid[] is null or a.id = any(?::uuid[]))
      order by a.created_at, a.id`,
    [userId, picked, picked],
  );
  return rows.map((row) => row.id);
}

/**
 * Uses an approved authorization's code once, for the application that started it: marks it `used`
 * and answers it with its accounts and the world's now; undefined for an unknown, used, refused or
 * another application's code.
 */
export async function useAuthorizationCode(
  tx: EntityManager,
  applicationId: string,
  codeHash: string,
): Promise<(AuthorizationRow & { account_ids: string[]; now: Date | string }) | undefined> {
  const [row] = await tx.execute<(AuthorizationRow & { account_ids: string[]; now: Date | string })[]>(
    `update enablebanking_authorizations z set status = 'used'
       from users u
      where u.id = z.user_id and z.code_hash = ? and z.application_id = ? and z.status = 'approved'
     returning z.id, z.application_id, z.user_id, z.aspsp_name, z.aspsp_country, z.psu_type, z.state, z.redirect_url,
       z.valid_until, z.balances, z.transactions, z.status, z.created_at, z.account_ids, ${WORLD_NOW_SQL} as now`,
    [codeHash, applicationId],
  );
  return row;
}

export async function insertSession(
  tx: EntityManager,
  row: { id: string; applicationId: string; userId: string; authorizationId: string; now: Date },
): Promise<void> {
  await tx.execute(
    `insert into enablebanking_sessions (id, application_id, user_id, authorization_id, created_at) values (?, ?, ?, ?, ?)`,
    [row.id, row.applicationId, row.userId, row.authorizationId, row.now],
  );
}

/** Gives each account of the session a uid of its own, in the order given. */
export async function insertSessionAccounts(tx: EntityManager, sessionId: string, accountIds: string[]): Promise<void> {
  if (accountIds.length === 0) return;
  await tx.execute(
    `insert into enablebanking_session_accounts (uid, session_id, account_id, position)
     select gen_random_uuid(), ?, picked.id, picked.n from unnest(?::uuid[]) with ordinality as picked(id, n)`,
    [sessionId, `{${accountIds.join(',')}}`],
  );
}

export interface SessionRow {
  id: string;
  application_id: string;
  user_id: string;
  aspsp_name: string;
  aspsp_country: string;
  psu_type: 'personal' | 'business';
  valid_until: Date | string;
  balances: boolean;
  transactions: boolean;
  created_at: Date | string;
  closed_at: Date | string | null;
  now: Date | string;
  accounts: SessionAccountRow[];
}

export interface SessionAccountRow {
  uid: string;
  account_id: string;
  name: string;
  currency: string;
  status: string;
  email: string;
}

const SESSION_SELECT = `select s.id, s.application_id, s.user_id, z.aspsp_name, z.aspsp_country, z.psu_type, z.valid_until, z.balances, z.transactions,
    s.created_at, s.closed_at, ${WORLD_NOW_SQL} as now,
    coalesce((select json_agg(json_build_object('uid', x.uid, 'account_id', x.account_id, 'name', a.name,
        'currency', a.currency, 'status', a.status, 'email', u.email) order by x.position)
      from enablebanking_session_accounts x join accounts a on a.id = x.account_id
      where x.session_id = s.id), '[]') as accounts
  from enablebanking_sessions s
  join enablebanking_authorizations z on z.id = s.authorization_id
  join users u on u.id = s.user_id`;

/** A session of the application, or undefined (another application's is undefined too). */
export async function selectSession(em: EntityManager, applicationId: string, id: string): Promise<SessionRow | undefined> {
  const [row] = await em.execute<SessionRow[]>(`${SESSION_SELECT} where s.id = ? and s.application_id = ?`, [id, applicationId]);
  return row;
}

/** A page of the user's sessions of one application, newest first, and how many there are (the console's list). */
export async function selectUserSessions(
  em: EntityManager,
  { userId, applicationId, limit, offset }: { userId: string; applicationId: string; limit: number; offset: number },
): Promise<{ rows: SessionRow[]; count: number }> {
  const rows = await em.execute<SessionRow[]>(
    `${SESSION_SELECT} where s.user_id = ? and s.application_id = ? order by s.created_at desc, s.id desc limit ? offset ?`,
    [userId, applicationId, limit, offset],
  );
  const [total] = await em.execute<{ n: string }[]>(
    'select count(*) as n from enablebanking_sessions where user_id = ? and application_id = ?',
    [userId, applicationId],
  );
  return { rows, count: Number(total?.n ?? 0) };
}

/** Closes a session of the user (revoked by the world's owner) at the world's now; its application's id, or undefined when none was open. */
export async function closeUserSessionRow(em: EntityManager, userId: string, id: string): Promise<string | undefined> {
  const [row] = await em.execute<{ application_id: string }[]>(
    `update enablebanking_sessions s set closed_at = ${WORLD_NOW_SQL}
       from users u
      where u.id = s.user_id and s.id = ? and s.user_id = ? and s.closed_at is null
     returning s.application_id`,
    [id, userId],
  );
  return row?.application_id;
}

/** Whether the user has a session by that id (open or not). */
export async function userSessionExists(em: EntityManager, userId: string, id: string): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>('select id from enablebanking_sessions where id = ? and user_id = ?', [
    id,
    userId,
  ]);
  return rows.length > 0;
}

/** Whether the user has an application by that id. */
export async function userApplicationExists(em: EntityManager, userId: string, id: string): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>('select id from enablebanking_applications where id = ? and user_id = ?', [
    id,
    userId,
  ]);
  return rows.length > 0;
}

/** Closes a session of the application at the world's now; whether one was open. */
export async function closeSessionRow(em: EntityManager, applicationId: string, id: string): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(
    `update enablebanking_sessions s set closed_at = ${WORLD_NOW_SQL}
       from users u
      where u.id = s.user_id and s.id = ? and s.application_id = ? and s.closed_at is null
     returning s.id`,
    [id, applicationId],
  );
  return rows.length > 0;
}

export interface SessionAccountAccessRow extends SessionAccountRow {
  session_id: string;
  aspsp_name: string;
  aspsp_country: string;
  user_id: string;
  valid_until: Date | string;
  balances: boolean;
  transactions: boolean;
  closed_at: Date | string | null;
  now: Date | string;
}

/** An account of one of the application's sessions by its uid, with its session's validity; or undefined. */
export async function selectSessionAccount(
  em: EntityManager,
  applicationId: string,
  uid: string,
): Promise<SessionAccountAccessRow | undefined> {
  const [row] = await em.execute<SessionAccountAccessRow[]>(
    `select x.uid, x.account_id, a.name, a.currency, a.status, u.email, s.id as session_id, s.user_id, z.aspsp_name, z.aspsp_country, z.valid_until, z.balances,
        z.transactions, s.closed_at, ${WORLD_NOW_SQL} as now
       from enablebanking_session_accounts x
       join enablebanking_sessions s on s.id = x.session_id
       join enablebanking_authorizations z on z.id = s.authorization_id
       join accounts a on a.id = x.account_id
       join users u on u.id = s.user_id
      where x.uid = ? and s.application_id = ?`,
    [uid, applicationId],
  );
  return row;
}

export interface PaymentRequestRow {
  id: string;
  application_id: string;
  application_name: string;
  user_id: string;
  aspsp_name: string;
  aspsp_country: string;
  psu_type: 'personal' | 'business';
  payment_type: string;
  scheme: string;
  state: string;
  redirect_url: string;
  amount: string;
  currency: string;
  creditor_name: string;
  creditor_iban: string;
  remittance: string;
  end_to_end_id: string | null;
  requested_execution_date: string | null;
  debtor_account_id: string | null;
  payment_details: unknown;
  status: 'pending' | 'authorised' | 'refused';
  payment_id: string | null;
  created_at: Date | string;
  decided_at: Date | string | null;
}

const PAYMENT_REQUEST_SELECT = `select p.id, p.application_id, a.name as application_name, p.user_id, p.aspsp_name, p.aspsp_country,
    p.psu_type, p.payment_type, p.scheme, p.state, p.redirect_url, p.amount, p.currency, p.creditor_name, p.creditor_iban,
    p.remittance, p.end_to_end_id, to_char(p.requested_execution_date, 'YYYY-MM-DD') as requested_execution_date,
    p.debtor_account_id, p.payment_details, p.status, p.payment_id, p.created_at, p.decided_at
  from enablebanking_payments p join enablebanking_applications a on a.id = p.application_id`;

export async function countPaymentRequests(tx: EntityManager, applicationId: string): Promise<number> {
  const [row] = await tx.execute<{ n: string }[]>('select count(*) as n from enablebanking_payments where application_id = ?', [
    applicationId,
  ]);
  return Number(row?.n ?? 0);
}

export interface NewPaymentRequest {
  id: string;
  applicationId: string;
  userId: string;
  aspspName: string;
  aspspCountry: string;
  psuType: string;
  paymentType: string;
  scheme: string;
  state: string;
  redirectUrl: string;
  amount: number;
  currency: string;
  creditorName: string;
  creditorIban: string;
  remittance: string;
  endToEndId: string | null;
  requestedExecutionDate: string | null;
  debtorAccountId: string | null;
  paymentDetails: unknown;
  now: Date;
}

export async function insertPaymentRequest(tx: EntityManager, r: NewPaymentRequest): Promise<void> {
  await tx.execute(
    `insert into enablebanking_payments
       (id, application_id, user_id, aspsp_name, aspsp_country, psu_type, payment_type, scheme, state, redirect_url, amount, currency,
        creditor_name, creditor_iban, remittance, end_to_end_id, requested_execution_date, debtor_account_id, payment_details, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)`,
    [
      r.id,
      r.applicationId,
      r.userId,
      r.aspspName,
      r.aspspCountry,
      r.psuType,
      r.paymentType,
      r.scheme,
      r.state,
      r.redirectUrl,
      r.amount,
      r.currency,
      r.creditorName,
      r.creditorIban,
      r.remittance,
      r.endToEndId,
      r.requestedExecutionDate,
      r.debtorAccountId,
      JSON.stringify(r.paymentDetails),
      r.now,
    ],
  );
}

/** A payment request of the application that it has not deleted, or undefined (another application's too). */
export async function selectApplicationPaymentRequest(
  em: EntityManager,
  applicationId: string,
  id: string,
): Promise<PaymentRequestRow | undefined> {
  const [row] = await em.execute<PaymentRequestRow[]>(
    `${PAYMENT_REQUEST_SELECT} where p.id = ? and p.application_id = ? and p.deleted_at is null`,
    [id, applicationId],
  );
  return row;
}

/** A payment request of the user (the consent page), or undefined. */
export async function selectUserPaymentRequest(
  em: EntityManager,
  userId: string,
  id: string,
): Promise<PaymentRequestRow | undefined> {
  const [row] = await em.execute<PaymentRequestRow[]>(`${PAYMENT_REQUEST_SELECT} where p.id = ? and p.user_id = ?`, [id, userId]);
  return row;
}

/** A page of the user's payment requests of one application (not deleted), newest first, and how many there are. */
export async function selectUserPaymentRequests(
  em: EntityManager,
  { userId, applicationId, limit, offset }: { userId: string; applicationId: string; limit: number; offset: number },
): Promise<{ rows: PaymentRequestRow[]; count: number }> {
  const rows = await em.execute<PaymentRequestRow[]>(
    `${PAYMENT_REQUEST_SELECT} where p.user_id = ? and p.application_id = ? and p.deleted_at is null
      order by p.created_at desc, p.id desc limit ? offset ?`,
    [userId, applicationId, limit, offset],
  );
  const [total] = await em.execute<{ n: string }[]>(
    'select count(*) as n from enablebanking_payments where user_id = ? and application_id = ? and deleted_at is null',
    [userId, applicationId],
  );
  return { rows, count: Number(total?.n ?? 0) };
}

/**
 * Decides a pending payment request of the user: `authorised` from the debtor account picked, or
 * `refused`. Conditional, so of two racing decisions one wins; false when it was not pending (or not the user's).
 */
export async function decidePendingPaymentRequest(
  tx: EntityManager,
  d: { userId: string; id: string; approve: boolean; debtorAccountId: string | null; now: Date },
): Promise<boolean> {
  const rows = await tx.execute<{ id: string }[]>(
    `update enablebanking_payments
        set status = ?, debtor_account_id = coalesce(?, debtor_account_id), decided_at = ?
      where id = ? and user_id = ? and status = 'pending'
     returning id`,
    [d.approve ? 'authorised' : 'refused', d.debtorAccountId, d.now, d.id, d.userId],
  );
  return rows.length > 0;
}

/** Links an authorised request to the section-19 payment it became. */
export async function linkPaymentRequest(tx: EntityManager, id: string, paymentId: string): Promise<void> {
  await tx.execute('update enablebanking_payments set payment_id = ? where id = ?', [paymentId, id]);
}

/**
 * Hides a payment request from its application (DELETE /payments/:id) if its status is still `status`
 * (as the caller read it: a decision in between wins); a pending one is refused with it.
 */
export async function deletePaymentRequestRow(
  em: EntityManager,
  d: { applicationId: string; id: string; status: string; now: Date },
): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(
    `update enablebanking_payments
        set deleted_at = ?, status = case when status = 'pending' then 'refused' else status end,
            decided_at = coalesce(decided_at, ?)
      where id = ? and application_id = ? and deleted_at is null and status = ?
     returning id`,
    [d.now, d.now, d.id, d.applicationId, d.status],
  );
  return rows.length > 0;
}

export interface OpenAccountRow {
  id: string;
  name: string;
  currency: string;
}

/** The user's open accounts, oldest first (a payment's debtor is one of them). */
export async function selectOpenAccounts(tx: EntityManager, userId: string): Promise<OpenAccountRow[]> {
  return tx.execute<OpenAccountRow[]>(
    `select id, name, currency from accounts where user_id = ? and status = 'open' order by created_at, id`,
    [userId],
  );
}

/** Counts one read of a session account in a scope on a day; the day's count so far, this one included. */
export async function incrementDailyAccess(
  em: EntityManager,
  { uid, scope, day }: { uid: string; scope: string; day: string },
): Promise<number> {
  const [row] = await em.execute<{ count: number }[]>(
    `insert into enablebanking_daily_access (uid, scope, day, count) values (?, ?, ?::date, 1)
     on conflict (uid, scope, day) do update set count = enablebanking_daily_access.count + 1
     returning count`,
    [uid, scope, day],
  );
  return Number(row?.count ?? 0);
}
