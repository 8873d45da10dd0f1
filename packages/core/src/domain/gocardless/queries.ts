/**
 * The SQL of the GoCardless face's requisitions (docs/architecture.md, "The schema"): the row type
 * and one named function per statement; `requisitions.ts` keeps the rules and maps rows to the
 * domain's `Requisition`.
 */
import type { EntityManager } from '@sandbank/db';
import { WORLD_NOW_SQL } from '../clock/clock.ts';

export interface AgreementRow {
  id: string;
  user_id: string;
  institution_id: string;
  max_historical_days: number;
  access_valid_for_days: number;
  /** The access scopes (a check constraint keeps them to `ACCESS_SCOPES`). */
  access_scope: string[];
  created_at: Date | string;
  accepted_at: Date | string | null;
}

const AGREEMENT_COLUMNS =
  'id, user_id, institution_id, max_historical_days, access_valid_for_days, access_scope, created_at, accepted_at';

/** How many rows of a face table (agreements, requisitions) the user has. */
export async function countFaceRows(
  tx: EntityManager,
  userId: string,
  table: 'gocardless_agreements' | 'gocardless_requisitions',
): Promise<number> {
  const [row] = await tx.execute<{ n: string }[]>(`select count(*) as n from ${table} where user_id = ?`, [userId]);
  return Number(row?.n ?? 0);
}

export async function insertAgreement(
  tx: EntityManager,
  agreement: {
    id: string;
    userId: string;
    institutionId: string;
    maxHistoricalDays: number;
    accessValidForDays: number;
    accessScope: readonly string[];
    createdAt: Date;
  },
): Promise<AgreementRow | undefined> {
  const [row] = await tx.execute<AgreementRow[]>(
    `insert into gocardless_agreements (id, user_id, institution_id, max_historical_days, access_valid_for_days, access_scope, created_at)
     values (?, ?, ?, ?, ?, ?::text[], ?) returning ${AGREEMENT_COLUMNS}`,
    [
      agreement.id,
      agreement.userId,
      agreement.institutionId,
      agreement.maxHistoricalDays,
      agreement.accessValidForDays,
      `{${agreement.accessScope.join(',')}}`,
      agreement.createdAt,
    ],
  );
  return row;
}

export async function selectAgreement(em: EntityManager, userId: string, id: string): Promise<AgreementRow | undefined> {
  const [row] = await em.execute<AgreementRow[]>(
    `select ${AGREEMENT_COLUMNS} from gocardless_agreements where id = ? and user_id = ?`,
    [id, userId],
  );
  return row;
}

export interface LinkedAccountRow {
  id: string;
  account_id: string;
  name: string;
  currency: string;
  status: string;
  email: string;
  requisition_id: string;
  institution_id: string;
  created_at: Date | string;
  last_accessed: Date | string | null;
  now: Date | string;
  agreement: AgreementRow;
}

/**
 * A linked account of the user's linked requisitions, or undefined; reading it records the access
 * (`last_accessed`) at the world's now, and the row carries the previous one.
 */
export async function touchLinkedAccount(em: EntityManager, userId: string, id: string): Promise<LinkedAccountRow | undefined> {
  const [row] = await em.execute<LinkedAccountRow[]>(
    `with found as (
       select g.id, g.account_id, a.name, a.currency, a.status, u.email, g.requisition_id, r.institution_id, g.created_at,
         g.last_accessed, ${WORLD_NOW_SQL} as now,
         (select row_to_json(x) from (select ${AGREEMENT_COLUMNS} from gocardless_agreements ag where ag.id = r.agreement_id) x) as agreement
       from gocardless_accounts g
       join gocardless_requisitions r on r.id = g.requisition_id and r.status = 'LN'
       join accounts a on a.id = g.account_id
       join users u on u.id = g.user_id
       where g.id = ? and g.user_id = ?
     ), touched as (
       update gocardless_accounts g set last_accessed = found.now from found where g.id = found.id
     )
     select * from found`,
    [id, userId],
  );
  return row;
}

/** Counts one read of a linked account's scope on a day; the count including it (one atomic upsert). */
export async function incrementDailyAccess(
  em: EntityManager,
  { linkedAccountId, scope, day }: { linkedAccountId: string; scope: string; day: string },
): Promise<number> {
  const [row] = await em.execute<{ count: number }[]>(
    `insert into gocardless_daily_access (account_id, scope, day, count) values (?, ?, ?::date, 1)
     on conflict (account_id, scope, day) do update set count = gocardless_daily_access.count + 1
     returning count`,
    [linkedAccountId, scope, day],
  );
  return Number(row?.count ?? 0);
}

/** The world's now and the state of a user's API key (the GoCardless face's token names both); or undefined. */
export async function selectTokenKey(
  em: EntityManager,
  userId: string,
  keyId: string,
): Promise<{ now: Date | string; revoked_at: Date | null; expires_at: Date | null; world_expired: boolean } | undefined> {
  const [row] = await em.execute<
    { now: Date | string; revoked_at: Date | null; expires_at: Date | null; world_expired: boolean }[]
  >(
    `select ${WORLD_NOW_SQL} as now, k.revoked_at, k.expires_at,
        exists (select 1 from worlds w where w.id = u.id and w.expires_at <= sandbank_wall_now()) as world_expired
       from api_keys k join users u on u.id = k.user_id where k.id = ? and u.id = ?`,
    [keyId, userId],
  );
  return row;
}

/** The statuses before the owner's decision, as a PostgreSQL array literal. */
const UNDECIDED_ARRAY = '{CR,GC,SA}';

export interface RequisitionRow {
  id: string;
  user_id: string;
  institution_id: string;
  redirect: string;
  reference: string;
  user_language: string;
  status: 'CR' | 'GC' | 'SA' | 'LN' | 'RJ';
  created_at: Date | string;
  step_at: Date | string;
  now: Date | string;
  accounts: string[];
  agreement: AgreementRow;
  /** The name of the API key it was created with; null before keys were kept. */
  app_name: string | null;
}

const REQUISITION_SELECT = `select r.id, r.user_id, r.institution_id, r.redirect, r.reference, r.user_language, r.status,
    r.created_at, r.step_at, ${WORLD_NOW_SQL} as now,
    (select k.name from api_keys k where k.id = r.api_key_id) as app_name,
    coalesce((select array_agg(g.id order by g.position) from gocardless_accounts g where g.requisition_id = r.id), '{}') as accounts,
    (select row_to_json(x) from (select ${AGREEMENT_COLUMNS} from gocardless_agreements a where a.id = r.agreement_id) x) as agreement
  from gocardless_requisitions r join users u on u.id = r.user_id`;

export async function selectRequisition(em: EntityManager, userId: string, id: string): Promise<RequisitionRow | undefined> {
  const [row] = await em.execute<RequisitionRow[]>(`${REQUISITION_SELECT} where r.id = ? and r.user_id = ?`, [id, userId]);
  return row;
}

/** A page of the user's requisitions, newest first. */
export function selectRequisitions(
  em: EntityManager,
  { userId, limit, offset }: { userId: string; limit: number; offset: number },
): Promise<RequisitionRow[]> {
  return em.execute<RequisitionRow[]>(
    `${REQUISITION_SELECT} where r.user_id = ? order by r.created_at desc, r.id desc limit ? offset ?`,
    [userId, limit, offset],
  );
}

export async function countRequisitions(em: EntityManager, userId: string): Promise<number> {
  const [total] = await em.execute<{ n: string }[]>('select count(*) as n from gocardless_requisitions where user_id = ?', [
    userId,
  ]);
  return Number(total?.n ?? 0);
}

export async function requisitionExists(em: EntityManager, userId: string, id: string): Promise<boolean> {
  const rows = await em.execute('select 1 from gocardless_requisitions where id = ? and user_id = ?', [id, userId]);
  return rows.length > 0;
}

/** Whether a requisition already uses the agreement. */
export async function agreementInUse(em: EntityManager, agreementId: string): Promise<boolean> {
  const rows = await em.execute('select 1 from gocardless_requisitions where agreement_id = ?', [agreementId]);
  return rows.length > 0;
}

/** Whether another requisition of the user carries this reference. */
export async function referenceTaken(em: EntityManager, userId: string, reference: string): Promise<boolean> {
  const rows = await em.execute('select 1 from gocardless_requisitions where user_id = ? and reference = ?', [userId, reference]);
  return rows.length > 0;
}

export async function insertRequisition(
  em: EntityManager,
  row: {
    id: string;
    userId: string;
    agreementId: string;
    institutionId: string;
    redirect: string;
    reference: string;
    userLanguage: string;
    apiKeyId: string;
    now: Date;
  },
): Promise<void> {
  await em.execute(
    `insert into gocardless_requisitions (id, user_id, agreement_id, institution_id, redirect, reference, user_language, api_key_id, created_at, step_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.userId,
      row.agreementId,
      row.institutionId,
      row.redirect,
      row.reference,
      row.userLanguage,
      row.apiKeyId,
      row.now,
      row.now,
    ],
  );
}

/** Marks an undecided requisition `status` (LN or RJ) at `now`; its agreement's id, or undefined when it was decided already. */
export async function decideUndecidedRequisition(
  em: EntityManager,
  { userId, id, status, now }: { userId: string; id: string; status: 'LN' | 'RJ'; now: Date },
): Promise<string | undefined> {
  const [decided] = await em.execute<{ agreement_id: string }[]>(
    `update gocardless_requisitions set status = ?, decided_at = ?, step_at = ?
      where id = ? and user_id = ? and status = any (?::text[])
     returning agreement_id`,
    [status, now, now, id, userId, UNDECIDED_ARRAY],
  );
  return decided?.agreement_id;
}

/** Links the user's open accounts (null: all of them, oldest first) to the requisition; the rows made. */
export async function insertLinkedAccounts(
  em: EntityManager,
  { userId, requisitionId, accountIds, now }: { userId: string; requisitionId: string; accountIds: string[] | null; now: Date },
): Promise<number> {
  const picked = accountIds === null ? null : `{${accountIds.join(',')}}`;
  const rows = await em.execute<{ id: string }[]>(
    `insert into gocardless_accounts (id, requisition_id, account_id, user_id, position, created_at)
     select gen_random_uuid(), ?, a.id, a.user_id, row_number() over (order by a.created_at, a.id), ?
       from accounts a
      where a.user_id = ? and a.status = 'open' and (?::uuid[] is null or a.id = any(?::uuid[]))
     returning id`,
    [requisitionId, now, userId, picked, picked],
  );
  return rows.length;
}

/** Accepts the agreement at `now`, unless it was accepted before. */
export async function acceptAgreement(em: EntityManager, agreementId: string, now: Date): Promise<void> {
  await em.execute('update gocardless_agreements set accepted_at = coalesce(accepted_at, ?) where id = ?', [now, agreementId]);
}

/** Moves an undecided requisition to `step` if it is at one of the `earlier` steps. */
export async function stepRequisition(
  em: EntityManager,
  { userId, id, step, earlier, now }: { userId: string; id: string; step: string; earlier: readonly string[]; now: Date },
): Promise<void> {
  await em.execute(
    'update gocardless_requisitions set status = ?, step_at = ? where id = ? and user_id = ? and status = any (?::text[])',
    [step, now, id, userId, `{${earlier.join(',')}}`],
  );
}
