/**
 * Simulated transactions: how money enters and leaves a sandbox world. The write is one SQL
 * statement (see simulation-statement.ts); when it writes nothing, a second query tells the caller
 * why — an idempotent replay, a conflicting reuse of the externalTxnId, or a refused transaction.
 */
import { hash } from 'node:crypto';
import type { EntityManager } from '@sandbank/db';
import { type Category, type Currency, SIMULATOR_SOURCE, type Transaction } from '@sandbank/schemas';
import { AppError, notFound } from '../../errors.ts';
import { addIsoDuration, isoDurationProblem, tryAddIsoDuration } from '../../lib/duration.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { isoTimestamp, LATEST_INSTANT } from '../../lib/timestamps.ts';
import { rowToTransaction } from '../../mappers/transaction.ts';
import { accountClosed } from '../accounts/accounts.ts';
import { userNow } from '../clock/clock.ts';
import { assumedConversion, type Conversion, convertCardPayment, forgetConversion } from '../currencies/card-payments.ts';
import type { ConversionGuard } from './queries.ts';
import {
  type BookingRow,
  bookingDeltas,
  CLOCK_SKEW_MS,
  MAX_BALANCE,
  probeSimulation,
  runSimulationStatement,
  type StoredTransaction,
} from './simulation-statement.ts';

/** The largest |amount| of one transaction, in minor units. */
export const MAX_AMOUNT = 1_000_000_000_000;
/** Attempts when a refused statement cannot be explained because the account changed meanwhile. */
const MAX_ATTEMPTS = 5;

export interface SimulateTransactionParams {
  userId: string;
  accountId: string;
  /** Non-zero minor units: credits > 0, debits < 0. Omitted: converted from originalAmount. */
  amount?: number | undefined;
  /** A card payment in another currency: what the merchant charged (signed like amount) and in what (card-payments.ts). */
  originalAmount?: number | undefined;
  originalCurrency?: Currency | undefined;
  /** Must be the account's currency; omitted: the account's. */
  currency?: Currency | undefined;
  description?: string | undefined;
  /** The idempotency key, per account; generated when omitted. */
  externalTxnId?: string | undefined;
  /** Defaults to the world's now (or `at`); may lie in the past, not in the future. */
  date?: Date | undefined;
  /** The instant the booking happens at (a schedule run at its due time); defaults to the world's now. */
  at?: Date | undefined;
  /** `posted` (default) or `pending` (a hold for a debit, nothing yet for a credit). */
  status?: 'pending' | 'posted' | undefined;
  /** Pending only: ISO 8601 durations after `date` when it posts, or voids, by itself. */
  settleAfter?: string | undefined;
  expireAfter?: string | undefined;
  merchant?: string | null | undefined;
  category?: Category | null | undefined;
  /** Pending only, for domain callers (an incoming payment's session): the instant it posts by itself. */
  settleAt?: Date | undefined;
  /** More of `raw` beside its source (an incoming payment's debtor). */
  raw?: Record<string, unknown> | undefined;
}

export interface SimulationResult {
  transaction: Transaction;
  /** The account's balances after the transaction (for a replay: the current ones). */
  balance: number;
  availableBalance: number;
  /** True when an identical earlier request is answered again and nothing changed. */
  replayed: boolean;
}

export async function simulateTransaction(em: EntityManager, input: SimulateTransactionParams): Promise<SimulationResult> {
  // The HTTP schema checks these too; domain callers without HTTP (the clock, scenarios, tests) get the same rules.
  const foreign = input.originalAmount !== undefined || input.originalCurrency !== undefined;
  if (foreign && (input.originalAmount === undefined || input.originalCurrency === undefined)) {
    throw invalid(
      input.originalAmount === undefined ? 'originalAmount' : 'originalCurrency',
      'originalAmount and originalCurrency go together',
    );
  }
  if (!foreign && input.amount === undefined)
    throw invalid('amount', 'Required, unless originalAmount and originalCurrency are given');
  if (
    input.amount !== undefined &&
    (!Number.isSafeInteger(input.amount) || input.amount === 0 || Math.abs(input.amount) > MAX_AMOUNT)
  ) {
    throw invalid('amount', 'Must be a non-zero integer within ±10^12');
  }
  const status = input.status ?? 'posted';
  if (status === 'posted' && (input.settleAfter || input.expireAfter || input.settleAt)) {
    throw invalid(input.settleAfter ? 'settleAfter' : 'expireAfter', 'Only a pending transaction settles or expires');
  }
  for (const field of ['settleAfter', 'expireAfter'] as const) {
    const problem = input[field] === undefined ? null : isoDurationProblem(input[field]);
    if (problem) throw invalid(field, problem);
  }
  if (input.date !== undefined && Number.isNaN(input.date.getTime())) throw invalid('date', 'Must be a valid instant');
  // The world's now is read inside the statement; only a pending booking that settles or expires
  // by itself needs it beforehand, to date its due times.
  const durations = input.settleAfter !== undefined || input.expireAfter !== undefined;
  // A card payment at the world's now, at its rate: converted from what the account's last conversion read,
  // booked by one statement that checks those assumptions (card-payments.ts, `assumedConversion`).
  if (
    foreign &&
    input.amount === undefined &&
    input.date === undefined &&
    input.at === undefined &&
    input.settleAt === undefined &&
    !durations &&
    input.originalAmount !== undefined &&
    input.originalCurrency !== undefined &&
    (input.currency === undefined || input.currency !== input.originalCurrency)
  ) {
    const assumed = assumedConversion({
      userId: input.userId,
      accountId: input.accountId,
      at: null,
      originalAmount: input.originalAmount,
      originalCurrency: input.originalCurrency,
      maxAmount: MAX_AMOUNT,
    });
    if (assumed) {
      const written = await bookOnce(em, input, status, assumed.amount, assumed.conversion, assumed.guard);
      if (written) return written;
      forgetConversion(input.userId, input.accountId); // an assumption failed (or the booking is refused): the full path says which
    }
  }
  // A conversion needs the payment's day (its rate) beforehand too: it reads the world's now with the rest
  // of its inputs, in one statement.
  const converted =
    foreign && input.originalAmount !== undefined && input.originalCurrency !== undefined
      ? await convertCardPayment(em, {
          userId: input.userId,
          accountId: input.accountId,
          at: input.date ?? input.at ?? null,
          originalAmount: input.originalAmount,
          originalCurrency: input.originalCurrency,
          amount: input.amount,
          maxAmount: MAX_AMOUNT,
        })
      : null;
  const date = input.date ?? converted?.date ?? (durations ? (input.at ?? (await userNow(em, input.userId))) : null);
  // A due time past the holdable years comes only from a date in the future of any world (whose
  // clock ends a century before them): refused here, before anything computes with it.
  for (const field of ['settleAfter', 'expireAfter'] as const) {
    const after = input[field];
    if (date && after !== undefined && !tryAddIsoDuration(date, after)) {
      throw invalid(field, `Must end by ${new Date(LATEST_INSTANT).toISOString()}, counted from date`);
    }
  }
  const { amount, conversion } = converted ?? { amount: input.amount ?? 0, conversion: null };
  const row = bookingRow(input, status, date, amount, conversion);
  // Its `date` and `postedAt` are written into the event by the statement, which knows the world's now.
  const transaction = rowToTransaction({ ...row, date: row.date ?? new Date(0) });
  for (let attempt = 1; ; attempt++) {
    const written = await runSimulationStatement(em, {
      userId: input.userId,
      row,
      currency: input.currency ?? null,
      eventId: uuidv7(),
      eventTransaction: transaction,
      at: input.at,
    });
    if (written) {
      const { balance, heldAmount } = written;
      return { transaction: rowToTransaction(written.row), balance, availableBalance: balance - heldAmount, replayed: false };
    }
    const probe = await probeSimulation(em, {
      userId: input.userId,
      accountId: row.account_id,
      externalTxnId: row.external_txn_id,
    });
    if (!probe) throw notFound('Account');
    if (probe.existing) return replay(probe.existing, probe, input);
    if (probe.accountStatus === 'closed') throw accountClosed();
    if (input.currency !== undefined && input.currency !== probe.accountCurrency) {
      throw invalid('currency', `Must be the account's currency, ${probe.accountCurrency}`);
    }
    if (input.date !== undefined) {
      const now = input.at ?? (await userNow(em, input.userId));
      if (input.date.getTime() > now.getTime() + CLOCK_SKEW_MS) throw invalid('date', 'Must not be in the future');
    }
    const delta = bookingDeltas(status, amount);
    if (probe.balance + delta.balance - probe.heldAmount - delta.held < 0) {
      throw new AppError('INSUFFICIENT_FUNDS', 'The available balance is lower than the debit');
    }
    if (probe.balance + delta.balance > MAX_BALANCE) {
      throw new AppError('BALANCE_LIMIT_EXCEEDED', `The balance would exceed ${MAX_BALANCE} minor units`);
    }
    // The account changed between the two statements (e.g. a credit arrived): try again.
    if (attempt >= MAX_ATTEMPTS) throw new Error('Simulation kept racing with concurrent changes');
  }
}

/** The transaction as the statement is to store it. */
function bookingRow(
  input: SimulateTransactionParams,
  status: 'pending' | 'posted',
  date: Date | null,
  amount: number,
  conversion: Conversion | null,
): BookingRow {
  return {
    id: uuidv7(),
    account_id: input.accountId,
    external_txn_id: input.externalTxnId ?? `sim_${uuidv7()}`,
    amount,
    // The statement stores the account's currency (and refuses another one): this is the event's placeholder.
    currency: input.currency ?? 'PLN',
    date,
    description: input.description ?? '',
    raw: { ...input.raw, source: SIMULATOR_SOURCE },
    status,
    posted_at: null,
    version: 1,
    merchant: input.merchant ?? null,
    category: input.category ?? null,
    reversal_of: null,
    settle_at: input.settleAt ?? (date && input.settleAfter ? addIsoDuration(date, input.settleAfter) : null),
    expire_at: date && input.expireAfter ? addIsoDuration(date, input.expireAfter) : null,
    request_fingerprint: requestFingerprint(input, date),
    original_amount: conversion?.originalAmount ?? null,
    original_currency: conversion?.originalCurrency ?? null,
    exchange_rate: conversion?.exchangeRate ?? null,
  };
}

/**
 * A converted booking at the world's now, in one statement that checks the conversion's assumptions; null when
 * it wrote nothing (an assumption failed, or the booking is refused: the full path then finds out which).
 */
async function bookOnce(
  em: EntityManager,
  input: SimulateTransactionParams,
  status: 'pending' | 'posted',
  amount: number,
  conversion: Conversion,
  guard: ConversionGuard,
): Promise<SimulationResult | null> {
  const row = bookingRow(input, status, null, amount, conversion);
  const written = await runSimulationStatement(em, {
    userId: input.userId,
    row,
    currency: input.currency ?? null,
    eventId: uuidv7(),
    eventTransaction: rowToTransaction({ ...row, date: new Date(0) }),
    guard,
  });
  if (!written) return null;
  const { balance, heldAmount } = written;
  return { transaction: rowToTransaction(written.row), balance, availableBalance: balance - heldAmount, replayed: false };
}

function invalid(path: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', `Invalid ${path}: ${message}`, { details: [{ path, message }] });
}

/** Whether a stored due time is the one `after` (a duration from the transaction's date) asks for. */
function sameDueTime(stored: Date | string | null, date: string, after: string | undefined): boolean {
  if (after === undefined) return stored === null;
  return stored !== null && isoTimestamp(stored) === addIsoDuration(new Date(date), after).toISOString();
}

/** A row without a fingerprint against a request: field by field while it is unchanged, else its currency. */
function sameAsBooked(existing: StoredTransaction, original: Transaction, input: SimulateTransactionParams): boolean {
  if (input.currency !== undefined && original.currency !== input.currency) return false;
  return (
    original.version !== 1 ||
    (original.amount === input.amount &&
      original.description === (input.description ?? '') &&
      original.status === (input.status ?? 'posted') &&
      original.merchant === (input.merchant ?? null) &&
      original.category === (input.category ?? null) &&
      sameDueTime(existing.settle_at, original.date, input.settleAfter) &&
      sameDueTime(existing.expire_at, original.date, input.expireAfter))
  );
}

/**
 * An omitted currency is the account's: a request that names it and one that leaves it out are the
 * same request, whichever of the two booked the transaction.
 */
function sameFingerprint(stored: string, original: Transaction, input: SimulateTransactionParams): boolean {
  if ((input.currency ?? original.currency) !== original.currency) return false;
  const date = new Date(original.date);
  return [undefined, original.currency as Currency].some(
    (currency) => stored === requestFingerprint({ ...input, currency }, date),
  );
}

/** How long after `date` a duration ends, in ms (what a due time asks for, however it is written). */
const offsetMs = (date: Date | null, after: string | undefined) =>
  date && after !== undefined ? addIsoDuration(date, after).getTime() - date.getTime() : null;

/**
 * What a simulation asks for, as a SHA-256 stored with the transaction it books: everything but its
 * date, compared on its own (an omitted date means "now", so a retry without one is the same
 * request), and its externalTxnId, the key itself. Due times count as how long after the date they
 * fall, resolved against the transaction's date when the request is repeated.
 */
function requestFingerprint(input: SimulateTransactionParams, date: Date | null): string {
  // An omitted currency (the account's) counts as 'PLN', the only one there was when fingerprints began,
  // so a PLN request booked then is the same request now.
  const asked = [
    input.amount ?? null,
    input.currency ?? 'PLN',
    input.description ?? '',
    input.status ?? 'posted',
    input.merchant ?? null,
    input.category ?? null,
    offsetMs(date, input.settleAfter),
    offsetMs(date, input.expireAfter),
    // Only a conversion adds to what was asked: every other request keeps the fingerprint it always had.
    ...(input.originalCurrency !== undefined ? [input.originalAmount ?? null, input.originalCurrency] : []),
  ];
  return hash('sha256', JSON.stringify(asked), 'base64url');
}

/**
 * Same request → the original, unchanged; a different one under the same key → 409, compared with
 * the request that booked it (its fingerprint), so also once the transaction has moved on (posted
 * with a tip, patched: its row no longer shows what was asked). A row booked without a fingerprint
 * (by a scenario, or before there were fingerprints) is compared field by field while it is
 * unchanged (version 1), and after that only by what can never change (currency and date).
 */
function replay(
  existing: StoredTransaction,
  balances: { balance: number; heldAmount: number },
  input: SimulateTransactionParams,
): SimulationResult {
  const original = rowToTransaction(existing);
  // An omitted date means "now", which cannot match twice: a retry without a date is the same request.
  const same =
    (input.date === undefined || original.date === input.date.toISOString()) &&
    (existing.request_fingerprint !== null
      ? sameFingerprint(existing.request_fingerprint, original, input)
      : sameAsBooked(existing, original, input));
  if (!same) throw new AppError('IDEMPOTENCY_CONFLICT', 'This externalTxnId was already used with a different payload');
  const { balance, heldAmount } = balances;
  return { transaction: original, balance, availableBalance: balance - heldAmount, replayed: true };
}
