/**
 * The SQL of the GoCardless face's requisitions (docs/architecture.md, "The schema"): the row type
 * and one named function per statement; `requisitions.ts` keeps the rules and maps rows to the
 * domain's `Requisition`.
 */
import type { EntityManager } from '@sandbank/db';
import { WORLD_NOW_SQL } from '../clock/clock.ts';
import { AGREEMENT_COLUMNS, type AgreementRow } from './agreements.ts';

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
}

const REQUISITION_SELECT = `select r.id, r.user_id, r.institution_id, r.redirect, r.reference, r.user_language, r.status,
    r.created_at, r.step_at, ${WORLD_NOW_SQL} as now,
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
    now: Date;
  },
): Promise<void> {
  await em.execute(
    `insert into gocardless_requisitions (id, user_id, agreement_id, institution_id, redirect, reference, user_language, created_at, step_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [row.id, row.userId, row.agreementId, row.institutionId, row.redirect, row.reference, row.userLanguage, row.now, row.now],
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
