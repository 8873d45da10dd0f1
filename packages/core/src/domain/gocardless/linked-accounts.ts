/**
 * An account as a GoCardless requisition linked it: its own face id, the Sandbank account behind
 * it, and the agreement that bounds what may be read and until when (on the world's clock). The
 * account's data itself — balances, booked and pending transactions — is the world's, read through
 * the statement model (`readStatement`, `readPendingEntries`) like every other face.
 */
import type { EntityManager } from '@sandbank/db';
import { type Agreement, agreementExpired, toAgreement } from './agreements.ts';
import { incrementDailyAccess, touchLinkedAccount } from './queries.ts';

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

/**
 * A linked account of the user's linked requisitions, or null (unknown, another user's, or of a
 * requisition not linked). Reading it records the access (`last_accessed`) at the world's now.
 */
export async function readLinkedAccount(
  em: EntityManager,
  { userId, id }: { userId: string; id: string },
): Promise<LinkedAccount | null> {
  const row = await touchLinkedAccount(em, userId, id);
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
  return incrementDailyAccess(em, { linkedAccountId, scope, day });
}
