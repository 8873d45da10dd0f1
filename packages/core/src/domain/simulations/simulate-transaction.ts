/**
 * Simulated transactions: the one way money moves in Sandbank. The write is one SQL statement
 * (see simulation-statement.ts); when it writes nothing, a second query tells the caller why —
 * an idempotent replay, a conflicting reuse of the externalTxnId, or a refused transaction.
 */
import type { EntityManager } from '@sandbank/db';
import { type Currency, SIMULATOR_SOURCE, type Transaction } from '@sandbank/schemas';
import { v7 as uuidv7 } from 'uuid';
import { AppError, notFound } from '../../errors.ts';
import { rowToTransaction, type TransactionRow } from '../../mappers/transaction.ts';
import { accountClosed } from '../accounts/accounts.ts';
import { MAX_BALANCE, probeSimulation, runSimulationStatement } from './simulation-statement.ts';

/** The largest |amount| of one transaction, in minor units. */
export const MAX_AMOUNT = 1_000_000_000_000;
/** How far in the future a `date` may lie, to forgive the caller's clock. */
export const CLOCK_SKEW_MS = 60_000;
/** Attempts when a refused statement cannot be explained because the account changed meanwhile. */
const MAX_ATTEMPTS = 5;

export interface SimulateTransactionInput {
  userId: string;
  accountId: string;
  /** Non-zero minor units: credits > 0, debits < 0. */
  amount: number;
  currency?: Currency | undefined;
  description?: string | undefined;
  /** The idempotency key, per account; generated when omitted. */
  externalTxnId?: string | undefined;
  /** Defaults to now; may lie in the past, not in the future. */
  date?: Date | undefined;
}

export interface SimulationResult {
  transaction: Transaction;
  /** The account's balance after the transaction (for a replay: the current balance). */
  balance: number;
  /** True when an identical earlier request is answered again and nothing changed. */
  replayed: boolean;
}

export async function simulateTransaction(em: EntityManager, input: SimulateTransactionInput): Promise<SimulationResult> {
  // The HTTP schema checks these too; domain callers without HTTP (scripts, tests) get the same rules.
  if (!Number.isSafeInteger(input.amount) || input.amount === 0 || Math.abs(input.amount) > MAX_AMOUNT) {
    throw new AppError('VALIDATION_ERROR', 'The amount must be a non-zero integer within ±10^12', {
      details: [{ path: 'amount', message: 'Must be a non-zero integer within ±10^12' }],
    });
  }
  const date = input.date ?? new Date();
  if (Number.isNaN(date.getTime()) || date.getTime() > Date.now() + CLOCK_SKEW_MS) {
    throw new AppError('VALIDATION_ERROR', 'The date must be a valid instant, not in the future', {
      details: [{ path: 'date', message: 'Must not be in the future' }],
    });
  }
  const row = {
    id: uuidv7(),
    account_id: input.accountId,
    external_txn_id: input.externalTxnId ?? `sim_${uuidv7()}`,
    amount: input.amount,
    currency: input.currency ?? 'PLN',
    date,
    description: input.description ?? '',
    raw: { source: SIMULATOR_SOURCE },
  };
  const transaction = rowToTransaction(row);
  for (let attempt = 1; ; attempt++) {
    const written = await runSimulationStatement(em, {
      userId: input.userId,
      row,
      eventId: uuidv7(),
      eventPayload: { transaction },
    });
    if (written) return { transaction: rowToTransaction(written.row), balance: written.balance, replayed: false };

    const probe = await probeSimulation(em, {
      userId: input.userId,
      accountId: row.account_id,
      externalTxnId: row.external_txn_id,
    });
    if (!probe) throw notFound('Account');
    if (probe.existing) return replay(probe.existing, probe.balance, input);
    if (probe.status === 'closed') throw accountClosed();
    if (probe.balance + input.amount < 0) {
      throw new AppError('INSUFFICIENT_FUNDS', 'The balance is lower than the debit');
    }
    if (probe.balance + input.amount > MAX_BALANCE) {
      throw new AppError('BALANCE_LIMIT_EXCEEDED', `The balance would exceed ${MAX_BALANCE} minor units`);
    }
    // The account changed between the two statements (e.g. a credit arrived): try again.
    if (attempt >= MAX_ATTEMPTS) throw new Error('Simulation kept racing with concurrent changes');
  }
}

/** Same payload → the original, unchanged; a different payload under the same key → 409. */
function replay(existing: TransactionRow, balance: number, input: SimulateTransactionInput): SimulationResult {
  const original = rowToTransaction(existing);
  const same =
    original.amount === input.amount &&
    original.currency === (input.currency ?? 'PLN') &&
    original.description === (input.description ?? '') &&
    // An omitted date means "now", which cannot match twice: a retry without a date is the same request.
    (input.date === undefined || original.date === input.date.toISOString());
  if (!same) {
    throw new AppError('IDEMPOTENCY_CONFLICT', 'This externalTxnId was already used with a different payload');
  }
  return { transaction: original, balance, replayed: true };
}
