/**
 * Pending transactions that settle or expire by themselves (`settleAfter` / `expireAfter`): each
 * due one is posted (or voided with reason `expired`) effective at its own due time, in its own
 * database transaction, through the same transitions a client calls. The worker runs this on wall
 * time; the clock's advance runs it per user as its time moves.
 *
 * Exactly once, even with several workers: candidates are picked with SKIP LOCKED, and the
 * transition itself locks the row and does nothing when it is no longer pending.
 */
import type { EntityManager } from '@sandbank/db';
import { AppError } from '../../errors.ts';
import { postTransaction, voidTransaction } from './transitions.ts';

export interface SettleDueParams {
  /** One user's world, or every world. */
  userId?: string | undefined;
  /** Everything due at or before this instant. */
  until: Date;
  limit: number;
}

export interface SettleDueResult {
  settled: number;
  expired: number;
}

interface DueRow {
  id: string;
  user_id: string;
  settle_at: Date | string | null;
  expire_at: Date | string | null;
}

const DUE = (byUser: boolean) => `
select id, user_id, settle_at, expire_at from transactions
where status = 'pending' and (settle_at <= ? or expire_at <= ?)${byUser ? ' and user_id = ?' : ''}
order by least(coalesce(settle_at, 'infinity'), coalesce(expire_at, 'infinity')), id
limit ?
for update skip locked`;

export async function settleDueTransactions(em: EntityManager, params: SettleDueParams): Promise<SettleDueResult> {
  const until = params.until.toISOString();
  const due = await em.execute<DueRow[]>(DUE(params.userId !== undefined), [
    until,
    until,
    ...(params.userId !== undefined ? [params.userId] : []),
    params.limit,
  ]);
  const result: SettleDueResult = { settled: 0, expired: 0 };
  for (const row of due) {
    const settleAt = row.settle_at ? new Date(row.settle_at) : null;
    const expireAt = row.expire_at ? new Date(row.expire_at) : null;
    const base = { userId: row.user_id, transactionId: row.id };
    if (settleAt && settleAt <= params.until && (!expireAt || settleAt <= expireAt)) {
      const posted = await postTransaction(em, { ...base, at: settleAt }).catch((error: unknown) => {
        // It can no longer post (the account closed, or a credit would pass the limit): it expires instead.
        if (error instanceof AppError) return null;
        throw error;
      });
      if (posted?.changed) result.settled += 1;
      if (posted) continue;
    }
    const at = expireAt && expireAt <= params.until ? expireAt : (settleAt ?? params.until);
    const voided = await voidTransaction(em, { ...base, reason: 'expired', at });
    if (voided.changed) result.expired += 1;
  }
  return result;
}
