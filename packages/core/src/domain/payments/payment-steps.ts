/**
 * A payment moving on (docs/concepts/payments.md#statuses): each step is one database transaction
 * that locks the payment row, checks that the step is still to be taken, moves its transactions
 * through the lifecycle (the hold posts or is voided; a return is a reversal credit), updates the
 * payment and writes `payment.updated`. A step that already happened finds the payment moved on
 * and does nothing, so a session interrupted halfway resumes without losing or doubling anything:
 * every payment is its own step, fired by the clock like every other due item (due-items/). A session's
 * common steps (entry, settlement) are taken set-wise, a batch at a time (session-batch.ts), with the same
 * results; the others come here one by one.
 *
 *   ACTC ──session──▶ ACSP ──results──▶ ACSC ──(a test IBAN's return, or a simulated one)──▶ ACSC + returned
 *     │                 └──(a test IBAN rejected in the session)──▶ RJCT (hold voided)
 *     └──cancel (before its session)──▶ CANC (hold voided)
 */
import type { EntityManager } from '@sandbank/db';
import type { Payment, PaymentStatus } from '@sandbank/schemas';
import { AppError, notFound } from '../../errors.ts';
import { toPayment } from '../../mappers/payment.ts';
import { reverseTransaction } from '../transactions/reverse-transaction.ts';
import { invalidTransition } from '../transactions/transaction-lock.ts';
import { postTransaction, voidTransaction } from '../transactions/transitions.ts';
import { sessionAt } from './calendar.ts';
import { paymentEvent } from './payment-events.ts';
import { type PaymentChange, type PaymentRow, selectDebitLeg, selectPayment, selectWorldNow, updatePayment } from './queries.ts';
import { reasonMessage, testIbanOutcome } from './test-ibans.ts';

const DAY_MS = 86_400_000;

/** Writes the change and its event; answers the payment after it. */
async function move(
  tx: EntityManager,
  row: PaymentRow,
  change: Omit<PaymentChange, 'paymentId'>,
  previous: Partial<Payment>,
): Promise<Payment> {
  // The update answers the payment after it (one statement, not a second read).
  const after = await updatePayment(tx, { paymentId: row.id, ...change });
  if (!after) throw new Error(`payment ${row.id} vanished`);
  const payment = toPayment(after);
  await paymentEvent(tx, { type: 'payment.updated', userId: row.user_id, payment, previous, at: change.at });
  return payment;
}

async function debitOf(tx: EntityManager, row: PaymentRow): Promise<string> {
  const debit = await selectDebitLeg(tx, row.id);
  if (!debit) throw new Error(`payment ${row.id} has no debit`);
  return debit.id;
}

/** RJCT with a reason: the hold released. */
async function reject(tx: EntityManager, row: PaymentRow, code: string, at: Date): Promise<Payment> {
  const debit = await debitOf(tx, row);
  await voidTransaction(tx, { userId: row.user_id, transactionId: debit, at, byPayment: true });
  const previous = { status: row.status as PaymentStatus, statusReason: null };
  return move(tx, row, { status: 'RJCT', reasonCode: code, reasonMessage: reasonMessage(code), dueAt: null, at }, previous);
}

/** The money comes back: a reversal credit of the debit, with the reason. */
async function bookReturn(tx: EntityManager, row: PaymentRow, code: string, at: Date): Promise<Payment> {
  const debit = await debitOf(tx, row);
  await reverseTransaction(tx, {
    userId: row.user_id,
    transactionId: debit,
    externalTxnId: `ret_${row.id}`,
    description: `Returned (${code}): ${row.description}`.slice(0, 500),
    at,
    paymentId: row.id,
    byPayment: true,
  });
  const message = reasonMessage(code);
  return move(
    tx,
    row,
    { status: 'ACSC', dueAt: null, returnReasonCode: code, returnReasonMessage: message, returnedAt: at, at },
    { returned: null },
  );
}

/**
 * Takes the payment's next step if it is due by `until` (the due-item runner calls this inside its
 * transaction, effective at the payment's own due time). Answers how many events it wrote: 0 when
 * the payment moved on meanwhile (nothing to do), else the payment's and its transaction's.
 */
export async function firePaymentStep(
  tx: EntityManager,
  { userId, paymentId, until }: { userId: string; paymentId: string; until: Date },
): Promise<number> {
  const row = await selectPayment(tx, { userId, paymentId, lock: true });
  if (!row || row.due_at === null || new Date(row.due_at) > until) return 0;
  const at = new Date(row.due_at);
  const iban = row.counterparty_iban;
  const planned = iban ? testIbanOutcome(iban) : undefined;
  if (row.status === 'ACTC') {
    const session = sessionAt(row.scheme === 'elixir' ? 'elixir' : 'sepa', at);
    if (!session) throw new Error(`payment ${row.id} is due at ${at.toISOString()}, which is no ${row.scheme} session`);
    await move(tx, row, { status: 'ACSP', dueAt: session.settlesAt, at }, { status: 'ACTC' });
    return 1;
  }
  if (row.status === 'ACSP') {
    if (planned?.stage === 'session') {
      await reject(tx, row, planned.code, at);
    } else {
      await postTransaction(tx, { userId, transactionId: await debitOf(tx, row), at, byPayment: true });
      const returnAt = planned?.stage === 'return' ? new Date(at.getTime() + (planned.days ?? 1) * DAY_MS) : null;
      await move(tx, row, { status: 'ACSC', settledAt: at, dueAt: returnAt, at }, { status: 'ACSP', settledAt: null });
    }
  } else if (row.status === 'ACSC' && row.returned_at === null) {
    try {
      await bookReturn(tx, row, planned?.stage === 'return' ? planned.code : 'MS03', at);
    } catch (error) {
      // The account was closed since (the rule refuses before it writes anything): no return can land.
      if (!(error instanceof AppError) || error.appCode !== 'ACCOUNT_CLOSED') throw error;
      await updatePayment(tx, { paymentId: row.id, status: 'ACSC', dueAt: null, at });
      return 0;
    }
  } else {
    throw new Error(`payment ${row.id} is due in status ${row.status}`);
  }
  return 2;
}

async function lockedPayment(tx: EntityManager, userId: string, paymentId: string): Promise<PaymentRow> {
  const row = await selectPayment(tx, { userId, paymentId, lock: true });
  if (!row) throw notFound('Payment');
  return row;
}

export interface PaymentActionResult {
  payment: Payment;
  changed: boolean;
}

/** `POST /v1/payments/:id/cancel`: CANC before its session (the hold released); a repeat answers it as it is. */
export async function cancelPayment(
  em: EntityManager,
  { userId, paymentId }: { userId: string; paymentId: string },
): Promise<PaymentActionResult> {
  return em.transactional(async (tx) => {
    const row = await lockedPayment(tx, userId, paymentId);
    if (row.status === 'CANC') return { payment: toPayment(row), changed: false };
    const now = await selectWorldNow(tx, userId);
    if (row.status !== 'ACTC' || (row.due_at !== null && new Date(row.due_at) <= now)) {
      throw invalidTransition(
        row.status === 'ACTC'
          ? 'Its session has begun: a payment in clearing cannot be cancelled'
          : `A payment in status ${row.status} cannot be cancelled; only one waiting for its session (ACTC)`,
      );
    }
    await voidTransaction(tx, { userId, transactionId: await debitOf(tx, row), at: now, byPayment: true });
    return { payment: await move(tx, row, { status: 'CANC', dueAt: null, at: now }, { status: 'ACTC' }), changed: true };
  });
}

/** `POST /v1/simulations/payments/:id/reject`: the receiving side refuses it now (ACTC or ACSP), with a reason code. */
export async function simulatePaymentRejection(
  em: EntityManager,
  { userId, paymentId, reasonCode }: { userId: string; paymentId: string; reasonCode: string },
): Promise<PaymentActionResult> {
  return em.transactional(async (tx) => {
    const row = await lockedPayment(tx, userId, paymentId);
    if (row.status === 'RJCT' && row.reason_code === reasonCode) return { payment: toPayment(row), changed: false };
    if (row.status !== 'ACTC' && row.status !== 'ACSP') {
      throw invalidTransition(
        row.status === 'ACSC'
          ? 'A settled payment is not rejected; it can be returned (POST /v1/simulations/payments/{id}/return)'
          : `A payment in status ${row.status} cannot be rejected`,
      );
    }
    const now = await selectWorldNow(tx, userId);
    return { payment: await reject(tx, row, reasonCode, now), changed: true };
  });
}

/** `POST /v1/simulations/payments/:id/return`: a settled payment to an IBAN comes back now, with a reason code. */
export async function simulatePaymentReturn(
  em: EntityManager,
  { userId, paymentId, reasonCode }: { userId: string; paymentId: string; reasonCode: string },
): Promise<PaymentActionResult> {
  return em.transactional(async (tx) => {
    const row = await lockedPayment(tx, userId, paymentId);
    if (row.returned_at !== null) {
      if (row.return_reason_code === reasonCode) return { payment: toPayment(row), changed: false };
      throw invalidTransition(`This payment was already returned (${row.return_reason_code})`);
    }
    if (row.status !== 'ACSC') throw invalidTransition(`Only a settled payment (ACSC) comes back; this one is ${row.status}`);
    if (row.scheme === 'internal') {
      throw new AppError('INVALID_TRANSITION', 'A transfer between your own accounts is not returned; pay it back instead');
    }
    const now = await selectWorldNow(tx, userId);
    return { payment: await bookReturn(tx, row, reasonCode, now), changed: true };
  });
}
