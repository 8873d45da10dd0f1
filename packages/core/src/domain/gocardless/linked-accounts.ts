/**
 * An account as a GoCardless requisition linked it: its own face id, the Sandbank account behind
 * it, and the agreement that bounds what may be read and until when (on the world's clock). The
 * account's data itself — balances, booked and pending transactions — is the world's, read through
 * the statement model (`readStatement`, `readPendingEntries`) like every other face.
 */
import type { EntityManager } from '@sandbank/db';
import { WORLD_NOW_SQL } from '../clock/clock.ts';
import { AGREEMENT_COLUMNS, type Agreement, type AgreementRow, agreementExpired, toAgreement } from './agreements.ts';

export interface LinkedAccount {
  /** The face's id of the account (GoCardless gives each requisition's accounts their own ids). */
  id: string;
  accountId: string;
  accountName: string;
  currency: string;
  open: boolean;
  ownerEmail: string;
  requisitionId: string;
  institutionId: string;
  agreement: Agreement;
  createdAt: Date;
  /** The previous read, before this one. */
  lastAccessed: Date | null;
  /** The world's now when it was read, and whether the agreement had run out by then. */
  now: Date;
  expired: boolean;
}

interface Row {
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
 * A linked account of the user's linked requisitions, or null (unknown, another user's, or of a
 * requisition not linked). Reading it records the access (`last_accessed`) at the world's now.
 */
export async function readLinkedAccount(
  em: EntityManager,
  { userId, id }: { userId: string; id: string },
): Promise<LinkedAccount | null> {
  const [row] = await em.execute<Row[]>(
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
  if (!row) return null;
  const agreement = toAgreement(row.agreement);
  const now = new Date(row.now);
  return {
    id: row.id,
    accountId: row.account_id,
    accountName: row.name,
    currency: row.currency,
    open: row.status === 'open',
    ownerEmail: row.email,
    requisitionId: row.requisition_id,
    institutionId: row.institution_id,
    agreement,
    createdAt: new Date(row.created_at),
    lastAccessed: row.last_accessed === null ? null : new Date(row.last_accessed),
    now,
    expired: agreementExpired(agreement, now),
  };
}

/**
 * Counts one read of a linked account's scope on a (Warsaw) day and returns the count including it:
 * one atomic upsert, so concurrent reads each get their own number and none is lost.
 */
export async function countDailyAccess(
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
