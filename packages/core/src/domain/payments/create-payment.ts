/**
 * A new payment (docs/concepts/payments.md). One database transaction locks the source
 * account (and, for an own-account transfer, the destination; in id order), checks the rules on
 * the locked balances, and writes the payment, its transactions, the balances and the events, so
 * a burst of payments from one account never spends more than its available balance: each waits
 * for the lock and sees the balance the previous one left. An own-account transfer that settles at
 * once in one currency does all of it in one statement (`fastTransfer`, queries.ts TRANSFER), with the
 * same checks under the same locks; anything it does not cover falls through to that transaction.
 *
 * A payment that fails a check of the bank's (funds, a test IBAN rejected at validation, Express
 * Elixir's limit) is still created, with status RJCT and its reason: it is a record, as at a bank.
 * A request that cannot make a payment at all (no such account, a closed one, a scheme that cannot
 * carry the currency) is refused and writes nothing.
 *
 * Idempotent with `Idempotency-Key`: the same key with the same request answers the payment it made
 * (200); with another request, 409 IDEMPOTENCY_CONFLICT. The key is unique per user in the
 * database, so two racing requests make one payment.
 */
import { hash } from 'node:crypto';
import type { EntityManager } from '@sandbank/db';
import type { Currency, ExternalScheme, Payment, PaymentScheme, Transaction } from '@sandbank/schemas';
import { AppError, notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { retriedTransaction } from '../../lib/retried-transaction.ts';
import { toPayment } from '../../mappers/payment.ts';
import { accountClosed } from '../accounts/accounts.ts';
import { ibanOf } from '../accounts/iban.ts';
import { adjustRate, convertMinor, rateText } from '../currencies/convert.ts';
import { warsawDay as fxDay, fxRate } from '../currencies/fx-rates.ts';
import { sessionFor, warsawDay } from './calendar.ts';
import {
  bookFastTransfer,
  bookPayment,
  type LockedAccountRow,
  lockAccounts,
  type NewPayment,
  newPaymentRow,
  type PaymentLeg,
  type PaymentRow,
  selectPaymentByKey,
  selectWorldNow,
} from './queries.ts';
import { defaultScheme, EXPRESS_ELIXIR_LIMIT, isInstant, SCHEME_CURRENCY } from './schemes.ts';
import { reasonMessage, testIbanOutcome } from './test-ibans.ts';

const PAYMENT_SOURCE = 'sandbank-payment';
/** The largest amount of one payment, in minor units (as for one transaction). */
export const MAX_PAYMENT_AMOUNT = 1_000_000_000_000;
/** How far ahead a requested execution date may lie. */
const MAX_EXECUTION_DAYS_AHEAD = 365;

export interface CreatePaymentParams {
  userId: string;
  idempotencyKey?: string | undefined;
  fromAccountId: string;
  /** Another account of the world, or anyone by IBAN (electronic form, checksum-valid: the schema checks). */
  to: { accountId: string } | { iban: string; name: string };
  amount: number;
  currency?: Currency | undefined;
  description?: string | undefined;
  scheme?: ExternalScheme | undefined;
  requestedExecutionDate?: string | undefined;
  endToEndId?: string | undefined;
}

export interface CreatedPayment {
  payment: Payment;
  /** True when an earlier request with the same key is answered again and nothing changed. */
  replayed: boolean;
}

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', `Invalid ${path}: ${message}`, { details: [{ path, message }] });

/** Thrown inside the transaction when the key was taken meanwhile: roll back, then answer as a replay. */
class KeyTaken extends Error {}

export async function createPayment(em: EntityManager, params: CreatePaymentParams): Promise<CreatedPayment> {
  checkRequest(params);
  const fingerprint = requestFingerprint(params);
  if (params.idempotencyKey !== undefined) {
    const existing = await selectPaymentByKey(em, params.userId, params.idempotencyKey);
    if (existing) return replay(existing, params, fingerprint);
  }
  const fast = await fastTransfer(em, params, fingerprint);
  if (fast) return { payment: fast, replayed: false };
  try {
    return { payment: await retriedTransaction(em, (tx) => book(tx, params, fingerprint)), replayed: false };
  } catch (error) {
    if (!(error instanceof KeyTaken) || params.idempotencyKey === undefined) throw error;
    const existing = await selectPaymentByKey(em, params.userId, params.idempotencyKey);
    if (!existing) throw new Error('idempotency key taken, yet no payment holds it');
    return replay(existing, params, fingerprint);
  }
}

/**
 * The same payment, with the same rules, inside the caller's database transaction `tx` (a payment
 * file books all its payments in one): no Idempotency-Key (the caller makes its own whole request
 * idempotent or not), and the caller retries the whole transaction on a serialization failure.
 */
export async function createPaymentInTransaction(
  tx: EntityManager,
  params: Omit<CreatePaymentParams, 'idempotencyKey'>,
): Promise<Payment> {
  checkRequest(params);
  return book(tx, params, requestFingerprint(params));
}

/**
 * A standing order's occurrence (schedules/run-occurrence.ts) as a payment, inside the caller's transaction:
 * made at `at` (the occurrence's due instant, not the world's now) and under `key`, the occurrence's own
 * Idempotency-Key, so a repeated occurrence answers the payment it already made.
 */
export async function createScheduledPayment(
  tx: EntityManager,
  params: Omit<CreatePaymentParams, 'idempotencyKey' | 'requestedExecutionDate'> & { key: string; at: Date },
): Promise<CreatedPayment> {
  const { key, at, ...request } = params;
  const asked = { ...request, idempotencyKey: key };
  checkRequest(asked);
  const fingerprint = requestFingerprint(asked);
  const existing = await selectPaymentByKey(tx, params.userId, key);
  if (existing) return replay(existing, asked, fingerprint);
  return { payment: await book(tx, asked, fingerprint, at), replayed: false };
}

/** What can be refused before looking at the database. */
function checkRequest(params: CreatePaymentParams): void {
  if (!Number.isSafeInteger(params.amount) || params.amount <= 0 || params.amount > MAX_PAYMENT_AMOUNT) {
    throw invalid('amount', 'Must be a positive integer of minor units, at most 10^12');
  }
  if ('accountId' in params.to && params.to.accountId === params.fromAccountId) {
    throw invalid('to.accountId', 'Must be another account than fromAccountId');
  }
  if ('accountId' in params.to && params.scheme !== undefined) {
    throw invalid('scheme', 'A transfer between your own accounts has no scheme; omit it');
  }
}

interface Outcome {
  scheme: PaymentScheme;
  status: 'ACTC' | 'ACSC' | 'RJCT';
  reason: { code: string; message: string } | null;
  dueAt: Date | null;
}

/** Books the payment at `at`, or at the world's now. */
async function book(tx: EntityManager, params: CreatePaymentParams, fingerprint: string, at?: Date): Promise<Payment> {
  const toAccountId = 'accountId' in params.to ? params.to.accountId : null;
  const locked = await lockAccounts(
    tx,
    params.userId,
    toAccountId ? [params.fromAccountId, toAccountId] : [params.fromAccountId],
  );
  const from = locked.find((account) => account.id === params.fromAccountId);
  const to = toAccountId ? locked.find((account) => account.id === toAccountId) : undefined;
  if (!from) throw notFound('Account');
  if (toAccountId && !to) throw notFound('Account');
  if (from.status === 'closed' || to?.status === 'closed') throw accountClosed();
  const currency = from.currency as Currency;
  if (params.currency !== undefined && params.currency !== currency) {
    throw invalid('currency', `Must be the source account's currency, ${currency}`);
  }
  const now = at ?? (await selectWorldNow(tx, params.userId));
  const conversion = to && to.currency !== currency ? await transferConversion(tx, params, currency, to, now) : null;
  checkExecutionDate(params, now);
  const outcome = decide(params, from, currency, now);
  const id = uuidv7();
  const endToEndId = params.endToEndId ?? `SB${id.replaceAll('-', '')}`;
  const row: NewPayment = {
    id,
    userId: params.userId,
    fromAccountId: from.id,
    currency,
    toAccountId,
    counterpartyName: 'iban' in params.to ? params.to.name : null,
    counterpartyIban: 'iban' in params.to ? params.to.iban : null,
    amount: params.amount,
    scheme: outcome.scheme,
    status: outcome.status,
    reasonCode: outcome.reason?.code ?? null,
    reasonMessage: outcome.reason?.message ?? null,
    endToEndId,
    description: params.description ?? '',
    requestedExecutionDate: params.requestedExecutionDate ?? null,
    dueAt: outcome.dueAt,
    acceptedAt: outcome.status === 'RJCT' ? null : now,
    settledAt: outcome.status === 'ACSC' ? now : null,
    idempotencyKey: params.idempotencyKey ?? null,
    requestFingerprint: fingerprint,
    at: now,
  };
  const context = { id, endToEndId, userId: params.userId, currency, from, to, now, outcome, conversion };
  const legs = outcome.status === 'RJCT' ? [] : legsOf(params, context);
  // The payment as it is read back after the booking (without reading it), for its answer and its event.
  const payment = toPayment(
    newPaymentRow(
      row,
      legs.map((leg) => leg.transaction.id),
    ),
  );
  // One statement: the row, the legs with their balances and events, then payment.created.
  if (!(await bookPayment(tx, row, legs, { id: uuidv7(), payload: { payment } }))) throw new KeyTaken();
  return payment;
}

/**
 * An own-account transfer that settles at once, in one statement (queries.ts, TRANSFER): both accounts
 * open and in one currency, the funds there, no requested date. Null when the statement wrote nothing
 * (or the request is not such a transfer): then `book` decides, and records a rejection too.
 */
async function fastTransfer(em: EntityManager, params: CreatePaymentParams, fingerprint: string): Promise<Payment | null> {
  if (!('accountId' in params.to) || params.requestedExecutionDate !== undefined) return null;
  const id = uuidv7();
  const endToEndId = params.endToEndId ?? `SB${id.replaceAll('-', '')}`;
  const currency = params.currency ?? 'PLN';
  // The events' JSON as `book` makes it; the statement fills in the world's now, the currency and the names.
  const placeholder = (accountId: string): LockedAccountRow => ({
    id: accountId,
    name: '',
    currency,
    status: 'open',
    balance: '0',
    held_amount: '0',
  });
  const outcome: Outcome = { scheme: 'internal', status: 'ACSC', reason: null, dueAt: null };
  const context = {
    id,
    endToEndId,
    userId: params.userId,
    currency,
    from: placeholder(params.fromAccountId),
    to: placeholder(params.to.accountId),
    now: new Date(0),
    outcome,
    conversion: null,
  };
  const legs = legsOf(params, context);
  const row = (at: Date, rowCurrency: string): NewPayment => ({
    id,
    userId: params.userId,
    fromAccountId: params.fromAccountId,
    currency: rowCurrency,
    toAccountId: context.to.id,
    counterpartyName: null,
    counterpartyIban: null,
    amount: params.amount,
    scheme: outcome.scheme,
    status: outcome.status,
    reasonCode: null,
    reasonMessage: null,
    endToEndId,
    description: params.description ?? '',
    requestedExecutionDate: null,
    dueAt: null,
    acceptedAt: at,
    settledAt: at,
    idempotencyKey: params.idempotencyKey ?? null,
    requestFingerprint: fingerprint,
    at,
  });
  const transactionIds = legs.map((leg) => leg.transaction.id);
  const booked = await bookFastTransfer(em, {
    userId: params.userId,
    id,
    fromAccountId: params.fromAccountId,
    toAccountId: context.to.id,
    currency: params.currency ?? null,
    amount: params.amount,
    endToEndId,
    description: params.description ?? '',
    idempotencyKey: params.idempotencyKey ?? null,
    requestFingerprint: fingerprint,
    legs: legs.map((leg) => ({
      id: leg.transaction.id,
      accountId: leg.transaction.accountId,
      amount: leg.transaction.amount,
      eventId: leg.eventId,
      event: leg.transaction,
    })),
    paymentEventId: uuidv7(),
    payment: toPayment(newPaymentRow(row(context.now, currency), transactionIds)),
  });
  if (!booked) return null;
  return toPayment(newPaymentRow(row(new Date(booked.now), booked.currency), transactionIds));
}

/** A requested execution date: a Warsaw day from today to a year ahead; sessions only (instant ones execute now). */
function checkExecutionDate(params: CreatePaymentParams, now: Date): void {
  const day = params.requestedExecutionDate;
  if (day === undefined) return;
  const today = warsawDay(now);
  if (day < today) throw invalid('requestedExecutionDate', `Must not be before today (${today}, Warsaw)`);
  const last = warsawDay(new Date(now.getTime() + MAX_EXECUTION_DAYS_AHEAD * 86_400_000));
  if (day > last) throw invalid('requestedExecutionDate', `Must be at most ${MAX_EXECUTION_DAYS_AHEAD} days ahead (${last})`);
  const instant = 'accountId' in params.to || (params.scheme !== undefined && isInstant(params.scheme));
  if (instant && day !== today) {
    throw invalid(
      'requestedExecutionDate',
      'Instant payments (own accounts, express_elixir, sepa_instant) execute today; omit it',
    );
  }
}

function decide(params: CreatePaymentParams, from: LockedAccountRow, currency: Currency, now: Date): Outcome {
  const available = Number(from.balance) - Number(from.held_amount);
  const reject = (scheme: PaymentScheme, code: string): Outcome => ({
    scheme,
    status: 'RJCT',
    reason: { code, message: reasonMessage(code) },
    dueAt: null,
  });
  if ('accountId' in params.to) {
    if (available < params.amount) return reject('internal', 'AM04');
    return { scheme: 'internal', status: 'ACSC', reason: null, dueAt: null };
  }
  const scheme = params.scheme ?? defaultScheme(currency);
  if (scheme === undefined) {
    throw new AppError('SCHEME_UNAVAILABLE', `No scheme carries ${currency} payments to an IBAN (PLN: elixir, EUR: sepa)`, {
      details: [{ path: 'currency', message: 'Payments to an IBAN are in PLN or EUR' }],
    });
  }
  if (SCHEME_CURRENCY[scheme] !== currency) {
    throw new AppError('SCHEME_UNAVAILABLE', `${scheme} carries ${SCHEME_CURRENCY[scheme]}, not ${currency}`, {
      details: [{ path: 'scheme', message: `Must carry ${currency}` }],
    });
  }
  const planned = testIbanOutcome(params.to.iban);
  if (planned?.stage === 'validation') return reject(scheme, planned.code);
  if (scheme === 'express_elixir' && params.amount > EXPRESS_ELIXIR_LIMIT) return reject(scheme, 'AM02');
  if (available < params.amount) return reject(scheme, 'AM04');
  if (isInstant(scheme)) {
    // Cleared within the request: a rejection in the "session" is immediate, a return comes days later.
    if (planned?.stage === 'session') return reject(scheme, planned.code);
    const dueAt = planned?.stage === 'return' ? new Date(now.getTime() + (planned.days ?? 1) * 86_400_000) : null;
    return { scheme, status: 'ACSC', reason: null, dueAt };
  }
  const session = sessionFor(scheme === 'elixir' ? 'elixir' : 'sepa', now, params.requestedExecutionDate);
  return { scheme, status: 'ACTC', reason: null, dueAt: session.sessionAt };
}

interface LegContext {
  id: string;
  endToEndId: string;
  userId: string;
  currency: Currency;
  from: LockedAccountRow;
  to: LockedAccountRow | undefined;
  now: Date;
  outcome: Outcome;
  /** Across currencies: the credit leg's amount and the rate it was converted at. */
  conversion: TransferConversion | null;
}

/** An own account as the other side of a transfer: its name and IBAN. */
const accountParty = (account: LockedAccountRow) => ({ name: account.name, iban: ibanOf(account.id) });

/** The debit (posted when settled at once, else a pending hold) and, between own accounts, the credit leg. */
function legsOf(params: CreatePaymentParams, c: LegContext): PaymentLeg[] {
  const at = c.now.toISOString();
  const settled = c.outcome.status === 'ACSC';
  const debitId = uuidv7();
  const creditId = c.to ? uuidv7() : null;
  // Who is on the other side, as every face shows it: the creditor, or the other own account.
  const creditor = 'iban' in params.to ? { name: params.to.name, iban: params.to.iban } : c.to ? accountParty(c.to) : null;
  const leg = (
    fields: Pick<Transaction, 'id' | 'accountId' | 'externalTxnId' | 'amount'>,
    counterpart: string | null,
    counterparty: { name: string; iban: string } | null,
  ): Transaction => ({
    ...fields,
    currency: c.currency,
    date: at,
    description: params.description ?? '',
    raw: {
      source: PAYMENT_SOURCE,
      paymentId: c.id,
      scheme: c.outcome.scheme,
      endToEndId: c.endToEndId,
      ...(counterparty ? { counterparty } : {}),
    },
    status: settled ? 'posted' : 'pending',
    postedAt: settled ? at : null,
    version: 1,
    merchant: 'iban' in params.to ? params.to.name : null,
    category: 'transfer',
    reversalOf: null,
    paymentId: c.id,
    ...(counterpart ? { counterpartTransactionId: counterpart } : {}),
  });
  const debitFields = { id: debitId, accountId: params.fromAccountId, externalTxnId: `pay_${c.id}`, amount: -params.amount };
  const debit = leg(debitFields, creditId, creditor);
  const legs: PaymentLeg[] = [{ transaction: debit, userId: c.userId, held: settled ? 0 : params.amount, eventId: uuidv7() }];
  if (c.to && creditId) {
    const creditFields = {
      id: creditId,
      accountId: c.to.id,
      externalTxnId: `pay_${c.id}`,
      amount: c.conversion?.amount ?? params.amount,
    };
    const credit: Transaction = {
      ...leg(creditFields, debitId, accountParty(c.from)),
      currency: c.to.currency as Currency,
      // Both amounts on the credit leg: what left the source, in its currency, and the rate.
      ...(c.conversion
        ? { originalAmount: params.amount, originalCurrency: c.currency, exchangeRate: c.conversion.exchangeRate }
        : {}),
    };
    legs.push({ transaction: credit, userId: c.userId, held: 0, eventId: uuidv7() });
  }
  return legs;
}

/**
 * The spread on own-account transfers across currencies (docs/concepts/payments.md#schemes): the credit is
 * converted at the world's mid rate of the day (Warsaw) less 0.5 %, rounded once to the destination's minor unit.
 */
const TRANSFER_SPREAD = '-0.005';

interface TransferConversion {
  amount: number;
  exchangeRate: string;
}

async function transferConversion(
  tx: EntityManager,
  params: CreatePaymentParams,
  currency: Currency,
  to: LockedAccountRow,
  now: Date,
): Promise<TransferConversion> {
  const quote = to.currency as Currency;
  const mid = await fxRate(tx, { userId: params.userId, date: fxDay(now), base: currency, quote });
  const effective = adjustRate(mid, TRANSFER_SPREAD);
  const converted = convertMinor(BigInt(params.amount), currency, quote, effective);
  if (converted <= 0n) throw invalid('amount', `Converts to 0 minor units of ${quote}`);
  if (converted > BigInt(MAX_PAYMENT_AMOUNT))
    throw invalid('amount', `Converts to ${converted} minor units of ${quote}, beyond 10^12`);
  return { amount: Number(converted), exchangeRate: rateText(effective) };
}

/** What a payment request asks for. */
export type PaymentRequest = Pick<
  CreatePaymentParams,
  'fromAccountId' | 'to' | 'amount' | 'description' | 'requestedExecutionDate' | 'endToEndId'
>;

/**
 * What a payment request asks for, as a SHA-256; currency and scheme compare on their own (omitted = the default).
 * A fork computes it again for a copied payment, with the copy's account ids (worlds/copied-payments.ts).
 */
export function requestFingerprint(params: PaymentRequest): string {
  const to = 'accountId' in params.to ? { accountId: params.to.accountId } : { iban: params.to.iban, name: params.to.name };
  const asked = [
    params.fromAccountId,
    to,
    params.amount,
    params.description ?? '',
    params.requestedExecutionDate ?? null,
    params.endToEndId ?? null,
  ];
  return hash('sha256', JSON.stringify(asked), 'base64url');
}

function replay(existing: PaymentRow, params: CreatePaymentParams, fingerprint: string): CreatedPayment {
  const same =
    existing.request_fingerprint === fingerprint &&
    (params.currency === undefined || params.currency === existing.currency) &&
    (params.scheme === undefined || params.scheme === existing.scheme);
  if (!same) throw new AppError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was already used with a different request');
  return { payment: toPayment(existing), replayed: true };
}
