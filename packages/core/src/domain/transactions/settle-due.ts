/**
 * A pending transaction that settles or expires by itself (`settleAfter` / `expireAfter`): posted
 * (or voided with reason `expired`) effective at its own due time, through the same transitions a
 * client calls. The clock (clock/due-items.ts) decides when; this decides what.
 *
 * Exactly once: the transition locks the row and does nothing when it is no longer pending.
 */
import type { EntityManager } from '@sandbank/db';
import { AppError } from '../../errors.ts';
import { postTransaction, voidTransaction } from './transitions.ts';

export interface DueTransaction {
  userId: string;
  transactionId: string;
  settleAt: Date | null;
  expireAt: Date | null;
}

export type SettleOutcome = 'settled' | 'expired' | 'unchanged';

/** Settles or expires one pending transaction whose due time has come (`until` is the world's now). */
export async function settleDueTransaction(em: EntityManager, due: DueTransaction, until: Date): Promise<SettleOutcome> {
  const { settleAt, expireAt } = due;
  const base = { userId: due.userId, transactionId: due.transactionId };
  if (settleAt && settleAt <= until && (!expireAt || settleAt <= expireAt)) {
    const posted = await postTransaction(em, { ...base, at: settleAt }).catch((error: unknown) => {
      // It can no longer post (the account closed, funds or the limit): it expires instead.
      if (error instanceof AppError) return null;
      throw error;
    });
    if (posted) return posted.changed ? 'settled' : 'unchanged';
  }
  const at = expireAt && expireAt <= until ? expireAt : (settleAt ?? until);
  const voided = await voidTransaction(em, { ...base, reason: 'expired', at });
  return voided.changed ? 'expired' : 'unchanged';
}
