/**
 * A reversal (a refund, a chargeback): a new posted transaction of the opposite sign with
 * `reversalOf` set, booked in the same statement that adds its amount to the original's
 * `reversed_amount` (CHECK: never above |amount|), so the reversals of one transaction never
 * exceed it, however many race.
 *
 * Idempotent by key (`externalTxnId`), and the default key names the input, so that repeating the
 * same request answers the reversal it booked (200) instead of refunding twice (docs/concepts/lifecycle.md):
 *   - `{}` (all that is left) → `rev_<originalId>`: a repeat finds it whatever is left now (the
 *     amount it booked was "the rest" at the time; computing the rest again would ask for 0);
 *   - `{ amount }` (a partial reversal) → `rev_<originalId>_<amount>`: two identical partial requests
 *     are one reversal, as an Idempotency-Key retry is with Stripe; to give the same amount back twice,
 *     send a distinct `externalTxnId` with each.
 * A key already used with another original, another amount or another description is 409
 * IDEMPOTENCY_CONFLICT. Requests on one original serialise on its row lock, and the key is looked up
 * after it, so identical requests racing book one reversal.
 */
import type { EntityManager } from '@sandbank/db';
import { SIMULATOR_SOURCE } from '@sandbank/schemas';
import { AppError } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { retriedTransaction } from '../../lib/retried-transaction.ts';
import { rowToTransaction, type TransactionRow } from '../../mappers/transaction.ts';
import { accountClosed } from '../accounts/accounts.ts';
import { userNow } from '../clock/clock.ts';
import { insertReversal, selectByExternalTxnId } from './queries/lifecycle.ts';
import { balancesAfter, checkVersion, invalidTransition, lockTransaction, type TransitionResult } from './transaction-lock.ts';
import { checkBalances, checkNotPaymentLeg, type TransitionParams } from './transitions.ts';

export interface ReverseParams extends TransitionParams {
  /** The magnitude to give back (default: what is left of the original). */
  amount?: number | undefined;
  description?: string | undefined;
  externalTxnId?: string | undefined;
  /** A payment's return: the reversal belongs to that payment. */
  paymentId?: string | undefined;
}

/** `rev_<id>` for a full reversal (all that is left), `rev_<id>_<amount>` for a partial one. */
const defaultReversalKey = (originalId: string, amount: number | undefined) =>
  amount === undefined ? `rev_${originalId}` : `rev_${originalId}_${amount}`;

export async function reverseTransaction(em: EntityManager, params: ReverseParams): Promise<TransitionResult> {
  return retriedTransaction(em, async (tx) => {
    const locked = await lockTransaction(tx, params.userId, params.transactionId);
    const { row } = locked;
    checkNotPaymentLeg(row, params);
    if (row.reversal_of) throw invalidTransition('A reversal cannot itself be reversed');
    if (row.status !== 'posted') throw invalidTransition(`A ${row.status} transaction cannot be reversed; void a pending one`);
    // A reversal is a new transaction and leaves the original's version as it is: a repeat carrying the
    // same ifVersion passes this check unless the original was changed (patched) since.
    checkVersion(locked, params.ifVersion);
    const original = Number(row.amount);
    const externalTxnId = params.externalTxnId ?? defaultReversalKey(row.id, params.amount);
    const existing = await selectByExternalTxnId(tx, row.account_id, externalTxnId);
    if (existing) return replay(existing, locked, { ...params, externalTxnId, sign: -Math.sign(original) });
    const remaining = Math.abs(original) - locked.reversedAmount;
    if (remaining === 0) throw new AppError('REVERSAL_EXCEEDS_ORIGINAL', 'This transaction is already fully reversed');
    const magnitude = params.amount ?? remaining;
    if (magnitude <= 0 || magnitude > remaining) {
      throw new AppError(
        'REVERSAL_EXCEEDS_ORIGINAL',
        `At most ${remaining} minor units of this transaction are left to reverse (asked ${magnitude})`,
      );
    }
    if (locked.accountStatus === 'closed') throw accountClosed();
    const amount = -Math.sign(original) * magnitude;
    const delta = { balance: amount, held: 0, count: 1 };
    checkBalances(locked, delta);
    const at = params.at ?? (await userNow(tx, params.userId));
    const reversal = rowToTransaction({
      id: uuidv7(),
      account_id: row.account_id,
      external_txn_id: externalTxnId,
      amount,
      currency: row.currency,
      date: at,
      description: params.description ?? `Reversal: ${row.description}`.slice(0, 500),
      raw: { source: SIMULATOR_SOURCE },
      status: 'posted',
      posted_at: at,
      version: 1,
      merchant: row.merchant,
      category: row.category,
      reversal_of: row.id,
      payment_id: params.paymentId ?? null,
    });
    const balances = balancesAfter(locked, delta);
    await insertReversal(tx, {
      magnitude,
      original: row,
      reversal,
      userId: locked.userId,
      amount,
      eventId: uuidv7(),
      payload: JSON.stringify({ transaction: reversal, balances }),
      at,
    });
    return { transaction: reversal, ...balances, changed: true };
  });
}

/** The reversal booked earlier under this key, if this request is the same one; else 409. */
function replay(
  existing: TransactionRow,
  locked: { row: TransactionRow; balance: number; heldAmount: number },
  asked: { amount?: number | undefined; description?: string | undefined; externalTxnId: string; sign: number },
): TransitionResult {
  const same =
    existing.reversal_of === locked.row.id &&
    (asked.amount === undefined || Number(existing.amount) === asked.sign * asked.amount) &&
    (asked.description === undefined || existing.description === asked.description);
  if (!same) {
    throw new AppError(
      'IDEMPOTENCY_CONFLICT',
      `externalTxnId ${asked.externalTxnId} was already used for another transaction, amount or description; send a new externalTxnId for another reversal`,
    );
  }
  return {
    transaction: rowToTransaction(existing),
    balance: locked.balance,
    availableBalance: locked.balance - locked.heldAmount,
    changed: false,
  };
}
