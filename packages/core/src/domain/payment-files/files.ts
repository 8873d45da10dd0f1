/**
 * Payment files over the API (docs/guides/payment-files.md): an uploaded pain.001
 * becomes one Payment per transaction, all in one database transaction — a file is booked whole or
 * not at all —; its pain.002 status report is built from the payments as they are now; an account's
 * camt.054 lists its payment legs. The XML itself is read and written by the pure modules beside
 * this one (pain001.ts, pain002.ts, camt054.ts); the rules of each payment are the payments
 * domain's (createPaymentInTransaction), not repeated here.
 */
import type { EntityManager } from '@sandbank/db';
import type { Currency, ExternalScheme, Payment } from '@sandbank/schemas';
import { AppError, notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { retriedTransaction } from '../../lib/retried-transaction.ts';
import { ibanOf, SANDBANK_BIC } from '../accounts/iban.ts';
import { warsawDay } from '../payments/calendar.ts';
import { createPaymentInTransaction } from '../payments/create-payment.ts';
import { lockAccounts, selectWorldNow } from '../payments/queries.ts';
import { isInstant } from '../payments/schemes.ts';
import { buildCamt054, type NotificationEntry } from './camt054.ts';
import { PaymentFileError } from './errors.ts';
import { type PaymentFileInstruction, parsePain001 } from './pain001.ts';
import { buildPain002, groupStatus, type PaymentStatus } from './pain002.ts';
import {
  insertPaymentFile,
  linkPaymentToFile,
  selectFilePayments,
  selectPaymentFile,
  selectPaymentLegs,
  selectUserAccounts,
} from './queries.ts';

export interface UploadedPaymentFile {
  id: string;
  messageId: string;
  messageNameId: 'pain.001.001.09' | 'pain.001.001.03';
  numberOfTransactions: number;
  /** How many of the payments are in each status right after the upload (`RJCT` ones included: a payment is a record). */
  statusCounts: Partial<Record<PaymentStatus, number>>;
  /** The file's group status now: the common one, or `PART`. */
  groupStatus: PaymentStatus | 'PART';
  createdAt: string;
  payments: Payment[];
}

/** A Payment's remittance is at most 140 characters (the payments schema); a file's `Ustrd` lines can be more. */
const MAX_DESCRIPTION = 140;

/**
 * Reads and validates `body` (a pain.001), then books every transaction as a Payment of the user,
 * in one database transaction. A problem with the file, or a transaction the payments domain refuses
 * (an unknown debtor account, a currency the account does not hold), rolls all of it back.
 */
export async function uploadPaymentFile(em: EntityManager, userId: string, body: Uint8Array): Promise<UploadedPaymentFile> {
  const file = parsePain001(body);
  const accounts = new Map((await selectUserAccounts(em, userId)).map((account) => [ibanOf(account.id), account]));
  const debtors = file.instructions.map((instruction) => {
    const account = accounts.get(instruction.debtor.iban);
    if (!account) {
      throw fileProblem(
        instruction,
        `Debtor IBAN ${instruction.debtor.iban} (PmtInf ${instruction.paymentInformationId}) is not one of your accounts`,
        'PmtInf/DbtrAcct/Id/IBAN',
      );
    }
    if (account.currency !== instruction.currency) {
      throw fileProblem(
        instruction,
        `Amount in ${instruction.currency}, but debtor account ${instruction.debtor.iban} holds ${account.currency}`,
        'CdtTrfTxInf/Amt/InstdAmt',
      );
    }
    return account.id;
  });
  const id = uuidv7();
  // The blocks in order, with their transactions' InstrIds (a Payment has no place for one; the report gives it back).
  const blocks: { paymentInformationId: string; transactions: number; instructionIds: (string | null)[] }[] = [];
  for (const instruction of file.instructions) {
    const last = blocks.at(-1);
    if (last?.paymentInformationId === instruction.paymentInformationId) {
      last.transactions++;
      last.instructionIds.push(instruction.instructionId);
    } else {
      blocks.push({
        paymentInformationId: instruction.paymentInformationId,
        transactions: 1,
        instructionIds: [instruction.instructionId],
      });
    }
  }
  return retriedTransaction(em, async (tx) => {
    // Every debtor account locked up front, in id order (as every payment locks), so two files never deadlock.
    await lockAccounts(tx, userId, [...new Set(debtors)].sort());
    const now = await selectWorldNow(tx, userId);
    const inserted = await insertPaymentFile(tx, {
      id,
      userId,
      message_id: file.messageId,
      message_name_id: file.version,
      file_created_at: file.createdAt,
      initiating_party_name: file.initiatingPartyName,
      number_of_transactions: file.instructions.length,
      controlSum: file.controlSum,
      blocks,
      at: now,
    });
    if (!inserted) {
      throw new AppError('CONFLICT', `A file with MsgId ${file.messageId} was already uploaded; nothing was booked again`, {
        details: [{ path: 'GrpHdr/MsgId', message: 'Already uploaded: a new file needs a new MsgId' }],
      });
    }
    const payments: Payment[] = [];
    for (const [position, instruction] of file.instructions.entries()) {
      const fromAccountId = debtors[position] as string;
      const scheme = schemeOf(instruction);
      let payment: Payment;
      try {
        payment = await createPaymentInTransaction(tx, {
          userId,
          fromAccountId,
          to: { iban: instruction.creditor.iban, name: instruction.creditor.name },
          amount: Number(instruction.amount),
          currency: instruction.currency as Currency,
          description: [...(instruction.remittance ?? '')].slice(0, MAX_DESCRIPTION).join(''),
          scheme,
          requestedExecutionDate: executionDate(instruction, scheme, now),
          endToEndId: instruction.endToEndId,
        });
      } catch (error) {
        if (error instanceof AppError && !(error instanceof PaymentFileError)) {
          throw fileProblem(instruction, `EndToEndId ${instruction.endToEndId}: ${error.message}`, 'CdtTrfTxInf', error.appCode);
        }
        throw error;
      }
      await linkPaymentToFile(tx, { paymentId: payment.id, fileId: id, position });
      payments.push(payment);
    }
    const statusCounts: Partial<Record<PaymentStatus, number>> = {};
    for (const payment of payments) statusCounts[payment.status] = (statusCounts[payment.status] ?? 0) + 1;
    return {
      id,
      messageId: file.messageId,
      messageNameId: file.version,
      numberOfTransactions: payments.length,
      statusCounts,
      groupStatus: groupStatus(payments.map((payment) => payment.status)),
      createdAt: now.toISOString(),
      payments,
    };
  });
}

/** A transaction's refusal, at its line, in the error contract (400 VALIDATION_ERROR unless the domain said otherwise). */
function fileProblem(
  instruction: PaymentFileInstruction,
  message: string,
  path: string,
  code: AppError['appCode'] = 'VALIDATION_ERROR',
): AppError {
  const detail = { path: `line ${instruction.line}: ${path}`, message };
  if (code === 'VALIDATION_ERROR') return new PaymentFileError(message, [{ line: instruction.line, message, path }]);
  return new AppError(code, message, { details: [detail] });
}

/**
 * The scheme a transaction asks for: `LclInstrm/Cd` `INST` is the currency's instant scheme (Express
 * Elixir for PLN, SEPA Instant for EUR); anything else the currency's default (Elixir, SEPA).
 */
function schemeOf(instruction: PaymentFileInstruction): ExternalScheme | undefined {
  if (instruction.localInstrument !== 'INST') return undefined;
  if (instruction.currency === 'PLN') return 'express_elixir';
  if (instruction.currency === 'EUR') return 'sepa_instant';
  return undefined;
}

/**
 * `ReqdExctnDt` as the payment's requested date: a date already past (files are often sent late) or
 * on an instant scheme means as soon as possible, as banks take it; a later date waits for its session.
 */
function executionDate(instruction: PaymentFileInstruction, scheme: ExternalScheme | undefined, now: Date): string | undefined {
  if (scheme !== undefined && isInstant(scheme)) return undefined;
  return instruction.requestedExecutionDate > warsawDay(now) ? instruction.requestedExecutionDate : undefined;
}

const compact = (id: string) => id.replaceAll('-', '');

/** The pain.002.001.10 of the user's file, from its payments' statuses now. */
export async function paymentFileStatusReport(em: EntityManager, userId: string, fileId: string): Promise<string> {
  const file = await selectPaymentFile(em, userId, fileId);
  if (!file) throw notFound('Payment file');
  const rows = await selectFilePayments(em, fileId);
  const now = await selectWorldNow(em, userId);
  let next = 0;
  const blocks = file.blocks.map((block) => {
    const mine = rows.slice(next, next + block.transactions);
    next += block.transactions;
    return {
      paymentInformationId: block.paymentInformationId,
      transactions: mine.map((row, index) => ({
        endToEndId: row.end_to_end_id,
        instructionId: block.instructionIds[index] ?? null,
        status: row.status as PaymentStatus,
        reason: row.reason_code ? { code: row.reason_code, message: row.reason_message } : null,
        acceptedAt: row.accepted_at,
        paymentId: compact(row.id),
        amount: { minor: BigInt(row.amount), currency: row.currency },
      })),
    };
  });
  return buildPain002({
    messageId: `SB${compact(file.id)}`,
    createdAt: now,
    original: {
      messageId: file.message_id,
      messageNameId: file.message_name_id,
      createdAt: file.file_created_at,
      initiatingPartyName: file.initiating_party_name,
    },
    blocks,
  });
}

/** The most entries one notification carries; a longer period is refused (ask for a shorter one). */
const MAX_NOTIFICATION_ENTRIES = 10_000;
/** The longest period one notification covers. */
const MAX_NOTIFICATION_DAYS = 366;

/** The camt.054.001.08 of the user's account over [from, to): its payment legs, with counterparty and EndToEndId. */
export async function accountNotifications(
  em: EntityManager,
  p: { userId: string; accountId: string; from: Date; to: Date },
): Promise<string> {
  if (p.to <= p.from)
    throw new AppError('VALIDATION_ERROR', 'Invalid to: must be after from', {
      details: [{ path: 'to', message: 'Must be after from' }],
    });
  if (p.to.getTime() - p.from.getTime() > MAX_NOTIFICATION_DAYS * 86_400_000) {
    throw new AppError('PERIOD_TOO_LONG', `A notification covers at most ${MAX_NOTIFICATION_DAYS} days`);
  }
  const account = (await selectUserAccounts(em, p.userId)).find((row) => row.id === p.accountId);
  if (!account) throw notFound('Account');
  const legs = await selectPaymentLegs(em, {
    accountId: p.accountId,
    from: p.from,
    to: p.to,
    limit: MAX_NOTIFICATION_ENTRIES + 1,
  });
  if (legs.length > MAX_NOTIFICATION_ENTRIES) {
    throw new AppError('LIMIT_EXCEEDED', `More than ${MAX_NOTIFICATION_ENTRIES} entries in the period; ask for a shorter one`);
  }
  const now = await selectWorldNow(em, p.userId);
  const entries: NotificationEntry[] = legs.map((leg) => {
    const amount = BigInt(leg.amount);
    return {
      transactionId: leg.id,
      amount: amount < 0n ? -amount : amount,
      direction: amount < 0n ? 'debit' : 'credit',
      status: leg.status === 'posted' ? 'BOOK' : 'PDNG',
      bookingDate: leg.posted_at ? new Date(leg.posted_at).toISOString().slice(0, 10) : null,
      valueDate: new Date(leg.date).toISOString().slice(0, 10),
      endToEndId: leg.end_to_end_id,
      counterparty: { name: leg.counterparty_name, iban: leg.counterparty_iban },
      remittance: leg.description || null,
      reversal: leg.reversal,
    };
  });
  return buildCamt054({
    messageId: `SB${compact(uuidv7())}`,
    createdAt: now,
    account: { iban: ibanOf(account.id), currency: account.currency, name: account.name, bic: SANDBANK_BIC },
    period: { from: p.from, to: p.to },
    entries,
  });
}
