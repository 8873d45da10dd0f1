/**
 * A pending transaction that settles or expires by itself (`settleAfter` / `expireAfter`): posted
 * (or voided with reason `expired`) effective at its own due time, through the same transitions a
 * client calls. The due-item runner (due-items/due-items.ts) decides when; this decides what.
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

/**
 * The client moved the transaction on between the clock finding it pending and this (posted it
 * at another amount, say): nothing is left to settle or expire.
 */
const movedOn = (error: unknown) => error instanceof AppError && error.appCode === 'INVALID_TRANSITION';

/** Settles or expires one pending transaction whose due time has come (`until` is the world's now). */
export async function settleDueTransaction(em: EntityManager, due: DueTransaction, until: Date): Promise<SettleOutcome> {
  const { settleAt, expireAt } = due;
  const base = { userId: due.userId, transactionId: due.transactionId };
  if (settleAt && settleAt <= until && (!expireAt || settleAt <= expireAt)) {
    const posted = await postTransaction(em, { ...base, at: settleAt }).catch((error: unknown) => {
      if (movedOn(error)) return 'moved-on' as const;
      // It can no longer post (the account closed, funds or the limit): it expires instead.
      if (error instanceof AppError) return null;
      throw error;
    });
    if (posted === 'moved-on') return 'unchanged';
    if (posted) return posted.changed ? 'settled' : 'unchanged';
  }
  const at = expireAt && expireAt <= until ? expireAt : (settleAt ?? until);
  const voided = await voidTransaction(em, { ...base, reason: 'expired', at }).catch((error: unknown) => {
    if (movedOn(error)) return null;
    throw error;
  });
  return voided?.changed ? 'expired' : 'unchanged';
}
