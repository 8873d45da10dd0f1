/**
 * The lifecycle transitions (docs/concepts/lifecycle.md), on the caller's own transactions. Each is one database
 * transaction that locks the transaction and its account, checks the rule on the locked values,
 * and writes the new state, the balance or hold, the version and the event in one statement
 * (transaction-lock.ts). Repeating a transition that already happened with the same input answers
 * the transaction as it is and writes nothing; that check comes before `ifVersion`'s, so a retry
 * carrying the version it was made on is answered too, unless something else changed the
 * transaction since (checkRepeatVersion).
 *
 *   pending ──post──▶ posted ──reverse──▶ (a new posted transaction with reversalOf)
 *      └─────void───▶ voided
 */
import type { EntityManager } from '@sandbank/db';
import type { Category } from '@sandbank/schemas';
import { AppError } from '../../errors.ts';
import { retriedTransaction } from '../../lib/retried-transaction.ts';
import type { TransactionRow } from '../../mappers/transaction.ts';
import { accountClosed } from '../accounts/accounts.ts';
import { userNow } from '../clock/clock.ts';
import { MAX_BALANCE } from '../simulations/simulation-statement.ts';
import {
  type AccountDelta,
  balancesAfter,
  checkRepeatVersion,
  checkVersion,
  findPost,
  invalidTransition,
  type LockedTransaction,
  lockTransaction,
  type RecordedChange,
  type TransitionResult,
  unchanged,
  writeTransition,
} from './transaction-lock.ts';

export interface TransitionParams {
  userId: string;
  transactionId: string;
  /** Refuse (409 VERSION_CONFLICT) unless the transaction is at this version. */
  ifVersion?: number | undefined;
  /** When it takes effect; defaults to the world's now (the clock passes due times). */
  at?: Date | undefined;
  /** Set by the payment that owns the transaction: only it moves a payment's transactions. */
  byPayment?: boolean | undefined;
}

/** A payment's transactions move with the payment (cancel, reject, return), not one by one. */
export function checkNotPaymentLeg(row: TransactionRow, params: TransitionParams): void {
  if (row.payment_id && !params.byPayment) {
    throw invalidTransition(
      `This transaction belongs to payment ${row.payment_id}: cancel it (POST /v1/payments/{id}/cancel) or simulate its rejection or return instead`,
    );
  }
}

/** A pending debit holds |amount|; nothing else holds anything. */
const heldBy = (row: TransactionRow) => (row.status === 'pending' && Number(row.amount) < 0 ? -Number(row.amount) : 0);

/** Funds and bounds after a change, as the booking checks them; 422 otherwise. */
export function checkBalances(locked: LockedTransaction, delta: AccountDelta): void {
  const { balance, availableBalance } = balancesAfter(locked, delta);
  if (availableBalance < 0) throw new AppError('INSUFFICIENT_FUNDS', 'The available balance is lower than the debit');
  if (balance > MAX_BALANCE) throw new AppError('BALANCE_LIMIT_EXCEEDED', `The balance would exceed ${MAX_BALANCE} minor units`);
}

export async function postTransaction(
  em: EntityManager,
  params: TransitionParams & { amount?: number | undefined },
): Promise<TransitionResult> {
  return retriedTransaction(em, async (tx) => {
    const locked = await lockTransaction(tx, params.userId, params.transactionId);
    const { row } = locked;
    checkNotPaymentLeg(row, params);
    const before = Number(row.amount);
    if (row.status === 'posted' && (params.amount === undefined || params.amount === before)) {
      // A repeat only of the same post: from pending, and to the amount asked (without one, the
      // pending amount kept). A transaction booked posted was never posted by anyone: 409.
      const isThisPost = (change: RecordedChange) =>
        change.type === 'transaction.updated' &&
        change.previous?.status === 'pending' &&
        (params.amount !== undefined || !('amount' in change.previous));
      // Every post raises the version, and a reversal is booked posted: those were never pending,
      // and need no walk of the user's events to say so.
      const neverPending = Number(row.version) === 1 || row.reversal_of !== null;
      const post = neverPending ? null : await findPost(tx, locked);
      if (post && isThisPost(post)) {
        await checkRepeatVersion(tx, locked, params.ifVersion, isThisPost);
        return unchanged(locked);
      }
      checkVersion(locked, params.ifVersion);
      throw invalidTransition(
        post
          ? 'The transaction was posted at another amount: repeat that post with its amount'
          : 'The transaction was booked posted, never pending: there is nothing to post',
      );
    }
    checkVersion(locked, params.ifVersion);
    if (row.status !== 'pending') throw invalidTransition(`A ${row.status} transaction cannot be posted`);
    const amount = params.amount ?? before;
    if (Math.sign(amount) !== Math.sign(before)) {
      throw new AppError('VALIDATION_ERROR', 'A posted amount keeps the sign of the pending one', {
        details: [{ path: 'amount', message: `Must be ${before < 0 ? 'negative' : 'positive'}, like the pending amount` }],
      });
    }
    if (locked.accountStatus === 'closed') throw accountClosed();
    const delta = { balance: amount, held: -heldBy(row), count: 0 };
    checkBalances(locked, delta);
    const at = params.at ?? (await userNow(tx, params.userId));
    const next = { ...row, status: 'posted' as const, amount, posted_at: at, version: Number(row.version) + 1 };
    const previous = { status: 'pending', postedAt: null, ...(amount !== before ? { amount: before } : {}) };
    return writeTransition(tx, locked, next, delta, {
      type: 'transaction.updated',
      extra: { previous, changes: Object.keys(previous) },
      at,
    });
  });
}

export async function voidTransaction(
  em: EntityManager,
  params: TransitionParams & { reason?: 'voided' | 'expired' | undefined },
): Promise<TransitionResult> {
  return retriedTransaction(em, async (tx) => {
    const locked = await lockTransaction(tx, params.userId, params.transactionId);
    const { row } = locked;
    checkNotPaymentLeg(row, params);
    if (row.status === 'voided') {
      // Voided or expired alike: pending → voided, the hold released.
      await checkRepeatVersion(tx, locked, params.ifVersion, (change) => change.type === 'transaction.removed');
      return unchanged(locked);
    }
    checkVersion(locked, params.ifVersion);
    if (row.status !== 'pending') throw invalidTransition('Only a pending transaction can be voided; reverse a posted one');
    const at = params.at ?? (await userNow(tx, params.userId));
    const next = { ...row, status: 'voided' as const, version: Number(row.version) + 1 };
    return writeTransition(
      tx,
      locked,
      next,
      { balance: 0, held: -heldBy(row), count: -1 },
      {
        type: 'transaction.removed',
        extra: { reason: params.reason ?? 'voided' },
        at,
      },
    );
  });
}

export interface PatchParams extends TransitionParams {
  description?: string | undefined;
  merchant?: string | null | undefined;
  category?: Category | null | undefined;
}

const PATCHABLE = ['description', 'merchant', 'category'] as const;

/** The bank cleans up a description, a merchant or a category; any status but voided. */
export async function patchTransaction(em: EntityManager, params: PatchParams): Promise<TransitionResult> {
  return retriedTransaction(em, async (tx) => {
    const locked = await lockTransaction(tx, params.userId, params.transactionId);
    const { row } = locked;
    if (row.status === 'voided') {
      checkVersion(locked, params.ifVersion);
      throw invalidTransition('A voided transaction cannot be changed');
    }
    const previous: Record<string, unknown> = {};
    const next = { ...row };
    if (params.description !== undefined && params.description !== row.description) {
      previous.description = row.description;
      next.description = params.description;
    }
    if (params.merchant !== undefined && params.merchant !== row.merchant) {
      previous.merchant = row.merchant;
      next.merchant = params.merchant;
    }
    if (params.category !== undefined && params.category !== row.category) {
      previous.category = row.category;
      next.category = params.category;
    }
    if (Object.keys(previous).length === 0) {
      // The same patch: it changed only fields this request gives (their values are the asked ones now).
      const given = PATCHABLE.filter((field) => params[field] !== undefined);
      await checkRepeatVersion(
        tx,
        locked,
        params.ifVersion,
        (change) =>
          change.type === 'transaction.updated' &&
          change.changes !== null &&
          change.changes.every((field) => (given as string[]).includes(field)),
      );
      return unchanged(locked);
    }
    checkVersion(locked, params.ifVersion);
    next.version = Number(row.version) + 1;
    const at = params.at ?? (await userNow(tx, params.userId));
    return writeTransition(
      tx,
      locked,
      next,
      { balance: 0, held: 0, count: 0 },
      {
        type: 'transaction.updated',
        extra: { previous, changes: Object.keys(previous) },
        at,
      },
    );
  });
}
