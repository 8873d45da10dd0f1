/**
 * A clearing session's batch, set-wise (docs/concepts/payments.md#crashes): the payment steps due at one
 * instant that the due-item runner fires together (due-items/due-items.ts, up to 100 in one database
 * transaction) take three statements whatever their number, not a few each: the due payments locked
 * (id order), the debits of those that settle locked with their accounts, then one statement that moves
 * every payment, posts every hold (each account's balance and hold moved once, by its debits' sum) and
 * writes every event, in the batch's order. Same rules and same results as one step at a time
 * (payment-steps.ts): the events' JSON is built here as `firePaymentStep` builds it, with the balances
 * each event would have shown had the steps run one after another.
 *
 * Only the common steps go set-wise: a session's entry (ACTC → ACSP) and a settlement (ACSP → ACSC, the
 * hold posted). Anything else (a test IBAN rejected in the session, a return, a debit that is not a
 * pending hold on an open account) fires through `firePaymentStep` in its place in the order, after the
 * steps before it are written. A payment that moved on meanwhile (no longer due) is skipped, as there.
 * The batch lives in the caller's transaction: it commits whole with the clock's move, or not at all.
 */
import type { EntityManager } from '@sandbank/db';
import type { Payment } from '@sandbank/schemas';
import { uuidv7 } from '../../lib/ids.ts';
import { toPayment } from '../../mappers/payment.ts';
import { rowToTransaction } from '../../mappers/transaction.ts';
import { sessionAt } from './calendar.ts';
import { firePaymentStep } from './payment-steps.ts';
import {
  type LockedDebitRow,
  lockDebitLegs,
  lockDuePayments,
  type PaymentRow,
  type SessionEvent,
  type SessionStep,
  selectAccountBalances,
  writeSessionSteps,
} from './queries.ts';
import { testIbanOutcome } from './test-ibans.ts';

const DAY_MS = 86_400_000;

export interface BatchFired {
  /** Payment steps taken. */
  payments: number;
  /** Events they wrote. */
  events: number;
}

/** An account's balances as the batch moves them (minor units). */
interface Running {
  balance: bigint;
  held: bigint;
}

const plannedOf = (row: PaymentRow) => (row.counterparty_iban ? testIbanOutcome(row.counterparty_iban) : undefined);

/**
 * Fires the next step of each payment in `paymentIds` (in that order: the runner's) that is still due by
 * `until`, inside the caller's transaction `tx`.
 */
export async function firePaymentSteps(
  tx: EntityManager,
  { userId, paymentIds, until }: { userId: string; paymentIds: string[]; until: Date },
): Promise<BatchFired> {
  const fired: BatchFired = { payments: 0, events: 0 };
  const rows = new Map((await lockDuePayments(tx, { userId, paymentIds, until })).map((row) => [row.id, row]));
  const settling = [...rows.values()].filter((row) => row.status === 'ACSP' && plannedOf(row)?.stage !== 'session');
  const debits = new Map<string, LockedDebitRow>();
  const accounts = new Map<string, Running>();
  if (settling.length > 0) {
    for (const debit of await lockDebitLegs(
      tx,
      userId,
      settling.map((row) => row.id),
    )) {
      if (debit.payment_id) debits.set(debit.payment_id, debit);
      if (!accounts.has(debit.account_id)) {
        accounts.set(debit.account_id, { balance: BigInt(debit.balance), held: BigInt(debit.held_amount) });
      }
    }
  }
  let steps: SessionStep[] = [];
  let events: SessionEvent[] = [];
  const flush = async () => {
    if (steps.length === 0) return;
    const posts = steps.filter((step) => step.debit !== null);
    const wrote = await writeSessionSteps(tx, { userId, steps, events });
    const touched = new Set(posts.map((step) => step.debit?.accountId)).size;
    // Everything was checked under the locks: a count that differs is a bug, and the batch rolls back.
    if (
      wrote.moved !== steps.length ||
      wrote.posted !== posts.length ||
      wrote.accounts !== touched ||
      wrote.logged !== events.length
    ) {
      throw new Error(`a session batch wrote ${JSON.stringify(wrote)} for ${steps.length} steps and ${events.length} events`);
    }
    steps = [];
    events = [];
  };
  for (const paymentId of paymentIds) {
    const row = rows.get(paymentId);
    if (!row) continue;
    const step =
      row.status === 'ACTC' ? entry(row) : row.status === 'ACSP' ? settlement(row, debits.get(row.id), accounts) : null;
    if (step) {
      steps.push(step.step);
      events.push(...step.events);
      fired.payments += 1;
      fired.events += step.events.length;
      continue;
    }
    // Its own step, in its place: what is batched before it is written first.
    await flush();
    const wrote = await firePaymentStep(tx, { userId, paymentId, until });
    if (wrote > 0) {
      fired.payments += 1;
      fired.events += wrote;
      // It may have moved an account's balance or hold (a rejection voids its hold): the steps after it start from the row.
      for (const account of await selectAccountBalances(tx, [...accounts.keys()])) {
        accounts.set(account.id, { balance: BigInt(account.balance), held: BigInt(account.held_amount) });
      }
    }
  }
  await flush();
  return fired;
}

interface PlannedStep {
  step: SessionStep;
  events: SessionEvent[];
}

/** `payment.updated` of a step, as payment-events.ts writes it. */
function paymentUpdated(payment: Payment, previous: Partial<Payment>, at: string): SessionEvent {
  return { id: uuidv7(), type: 'payment.updated', payload: { payment, previous, changes: Object.keys(previous) }, at };
}

/** ACTC → ACSP at its session; null when its due time is no session (firePaymentStep throws for it). */
function entry(row: PaymentRow): PlannedStep | null {
  const at = new Date(row.due_at ?? 0);
  const session = sessionAt(row.scheme === 'elixir' ? 'elixir' : 'sepa', at);
  if (!session) return null;
  const payment = toPayment({ ...row, status: 'ACSP', due_at: session.settlesAt });
  const iso = at.toISOString();
  return {
    step: { paymentId: row.id, status: 'ACSP', at: iso, dueAt: session.settlesAt.toISOString(), settledAt: null, debit: null },
    events: [paymentUpdated(payment, { status: 'ACTC' }, iso)],
  };
}

/**
 * ACSP → ACSC: the hold posts (transaction.updated with the account's balances after it) and the payment
 * settles (a test IBAN's return falls due days later). Null when the debit is not a pending hold on an open
 * account: `firePaymentStep` then refuses it as it always did.
 */
function settlement(row: PaymentRow, debit: LockedDebitRow | undefined, accounts: Map<string, Running>): PlannedStep | null {
  const running = debit ? accounts.get(debit.account_id) : undefined;
  if (!debit || !running || debit.status !== 'pending' || debit.account_status === 'closed') return null;
  const at = new Date(row.due_at ?? 0);
  const iso = at.toISOString();
  const amount = BigInt(debit.amount);
  if (amount >= 0n) return null;
  // Posting a hold moves the balance by the debit and releases as much of the hold.
  running.balance += amount;
  running.held += amount;
  const { account_status: _status, balance: _balance, held_amount: _held, ...leg } = debit;
  const transaction = rowToTransaction({ ...leg, status: 'posted', posted_at: at, version: Number(leg.version) + 1 });
  const previous = { status: 'pending', postedAt: null };
  const balances = { balance: Number(running.balance), availableBalance: Number(running.balance - running.held) };
  const planned = plannedOf(row);
  const returnAt = planned?.stage === 'return' ? new Date(at.getTime() + (planned.days ?? 1) * DAY_MS) : null;
  const payment = toPayment({ ...row, status: 'ACSC', settled_at: at, due_at: returnAt });
  return {
    step: {
      paymentId: row.id,
      status: 'ACSC',
      at: iso,
      dueAt: returnAt ? returnAt.toISOString() : null,
      settledAt: iso,
      debit: { id: debit.id, accountId: debit.account_id, amount: Number(amount) },
    },
    events: [
      {
        id: uuidv7(),
        type: 'transaction.updated',
        payload: { transaction, previous, changes: Object.keys(previous), balances },
        at: iso,
      },
      paymentUpdated(payment, { status: 'ACSP', settledAt: null }, iso),
    ],
  };
}
