/**
 * The statement model every statement format writes (docs/faces/statements.md): one account, one period of whole
 * days in Europe/Warsaw on the world's clock, the opening and closing booked balances, and the
 * booked entries between them — transactions by the day they posted, reversals as their own
 * entries. Nothing else in the code base computes a statement balance.
 *
 * A statement is read in one snapshot (a read-only REPEATABLE READ transaction): first its head —
 * the account, the period, the opening balance and the totals of the period's entries, so
 * closing = opening + Σ entries — then its entries through a cursor, a page at a time, each with
 * the balance right after it. A year of a busy account is never held in memory whole: a writer
 * streams the file page by page (`openStatement`). `readStatement` collects a short one.
 */
import { type EntityManager, openSnapshot, type Snapshot } from '@sandbank/db';
import { AppError, notFound } from '../../errors.ts';
import { daysBetween } from '../../lib/calendar-days.ts';
import { ibanOf, SANDBANK_BIC } from '../accounts/iban.ts';
import { conversionOf, type EntryConversion } from './entry-conversion.ts';
import { type PendingEntry, partyOf, toPendingEntry } from './pending-entries.ts';
import {
  type EntryRow,
  fetchEntries,
  type HeadRow,
  openEntriesCursor,
  selectPendingOnSnapshot,
  selectStatementHead,
} from './queries.ts';
import { checkPeriod, MAX_STATEMENT_DAYS, periodTooLong } from './statement-period.ts';

/** Entries fetched from the cursor at a time. */
const STATEMENT_PAGE_SIZE = 500;

export interface StatementEntry {
  /** The transaction's id (camt `AcctSvcrRef`, OFX `FITID`, MT940 bank reference). */
  id: string;
  externalTxnId: string;
  /** Minor units, signed: negative leaves the account. */
  amount: number;
  /** The local day it posted (booking date) and the local day of its `date` (value date). */
  bookingDate: string;
  valueDate: string;
  postedAt: Date;
  description: string;
  merchant: string | null;
  category: string | null;
  reversalOf: string | null;
  /** A payment's other side and EndToEndId (docs/concepts/payments.md); null on other transactions. */
  counterparty: { name: string | null; iban: string | null } | null;
  endToEndId: string | null;
  /** The booked balance right after this entry. */
  balanceAfter: number;
  /** A card payment in another currency: what the merchant charged and the rate; null for any other entry. */
  conversion: EntryConversion | null;
}

/** Count and sum (absolute, minor units) of a period's entries on one side. */
export interface StatementSide {
  count: number;
  sum: number;
}

/** Everything about a statement but its entries (camt's balances and `TxsSummry` precede them). */
export interface StatementHead {
  account: { id: string; name: string; currency: string; iban: string; bic: string; ownerEmail: string };
  /** Inclusive local days; `to` is never after the world's today. */
  period: { from: string; to: string };
  /** The world's now when the statement was read. */
  createdAt: Date;
  /** Booked balance at the start of `from` and at the end of `to` (or now, when `to` is today). */
  opening: number;
  closing: number;
  /** closing − the current holds when the period ends today, else closing (OFX `AVAILBAL`). */
  available: number;
  /** The booked entries of the period: credits (amount ≥ 0) and debits; closing = opening + credits − debits. */
  credits: StatementSide;
  debits: StatementSide;
}

export interface Statement extends StatementHead {
  entries: StatementEntry[];
  /** Pending entries whose value date is in the period: only when asked for (camt.052). */
  pending: PendingEntry[];
}

/** An open statement: its head, its pending entries (when asked for), its entries page by page. */
export interface StatementReader {
  head: StatementHead;
  pending: PendingEntry[];
  /** The booked entries, oldest posting first, in pages; once only. Closes the reader when done. */
  pages(): AsyncGenerator<StatementEntry[]>;
  /** Ends the snapshot (the pages' end does it too); safe to call more than once. */
  close(): Promise<void>;
}

export interface ReadStatementParams {
  userId: string;
  accountId: string;
  /** `YYYY-MM-DD`; default: the first day of `to`'s month. */
  from?: string | undefined;
  /** `YYYY-MM-DD`; default and upper bound: the world's today. */
  to?: string | undefined;
  withPending?: boolean;
}

/**
 * Opens a statement: checks the period, reads the head (404 for an account the user does not
 * own). The caller must drain `pages()` or call `close()`.
 */
export async function openStatement(em: EntityManager, params: ReadStatementParams): Promise<StatementReader> {
  const { userId, accountId, from, to } = params;
  checkPeriod(from, to);
  const snapshot = await openSnapshot(em);
  try {
    const row = await selectStatementHead(snapshot, { accountId, userId, from, to });
    if (!row) throw notFound('Account');
    if (row.from_day > row.to_day) {
      throw new AppError('VALIDATION_ERROR', '`from` is after today in this world', {
        details: [{ path: 'from', message: `Must not be after ${row.to_day}, today in the account’s world` }],
      });
    }
    if (daysBetween(row.from_day, row.to_day) > MAX_STATEMENT_DAYS) throw periodTooLong();
    const head = toHead(row);
    const pending = params.withPending
      ? (await selectPendingOnSnapshot(snapshot, { accountId, from: head.period.from, to: head.period.to })).map(toPendingEntry)
      : [];
    return { head, pending, pages: () => pagesOf(snapshot, head), close: () => snapshot.close() };
  } catch (error) {
    await snapshot.close();
    throw error;
  }
}

/** The whole statement in memory: for short periods (a day's balances, a bank API's page of history). */
export async function readStatement(em: EntityManager, params: ReadStatementParams): Promise<Statement> {
  const reader = await openStatement(em, params);
  const entries: StatementEntry[] = [];
  for await (const page of reader.pages()) entries.push(...page);
  return { ...reader.head, entries, pending: reader.pending };
}

async function* pagesOf(snapshot: Snapshot, head: StatementHead): AsyncGenerator<StatementEntry[]> {
  try {
    await openEntriesCursor(snapshot, { accountId: head.account.id, from: head.period.from, to: head.period.to });
    let balance = head.opening;
    let count = 0;
    for (;;) {
      const rows = await fetchEntries(snapshot, STATEMENT_PAGE_SIZE);
      if (rows.length === 0) break;
      count += rows.length;
      yield rows.map((row) => {
        balance += Number(row.amount);
        return toEntry(row, balance);
      });
      if (rows.length < STATEMENT_PAGE_SIZE) break;
    }
    // One snapshot: the entries add up to the head's totals. A mismatch is a bug, never a file.
    if (balance !== head.closing || count !== head.credits.count + head.debits.count) {
      throw new Error(`Statement entries do not reconcile: ${count} entries end at ${balance}, the head says ${head.closing}`);
    }
  } finally {
    await snapshot.close();
  }
}

function toHead(row: HeadRow): StatementHead {
  const opening = Number(row.opening);
  const credits = { count: Number(row.credit_count), sum: Number(row.credit_sum) };
  const debits = { count: Number(row.debit_count), sum: Number(row.debit_sum) };
  const closing = opening + credits.sum - debits.sum;
  return {
    account: {
      id: row.account_id,
      name: row.name,
      currency: row.currency,
      iban: ibanOf(row.account_id),
      bic: SANDBANK_BIC,
      ownerEmail: row.email,
    },
    period: { from: row.from_day, to: row.to_day },
    createdAt: new Date(row.now),
    opening,
    closing,
    available: row.is_today ? closing - Number(row.held) : closing,
    credits,
    debits,
  };
}

/** A booked entry as statements show it (also Enable Banking's pages: enablebanking/transaction-pages.ts). */
export function toEntry(row: EntryRow, balanceAfter: number): StatementEntry {
  return {
    id: row.id,
    externalTxnId: row.external_txn_id,
    amount: Number(row.amount),
    bookingDate: row.booking_date,
    valueDate: row.value_date,
    postedAt: new Date(row.posted_at),
    description: row.description,
    merchant: row.merchant,
    category: row.category,
    reversalOf: row.reversal_of,
    counterparty: partyOf(row),
    endToEndId: row.end_to_end_id,
    balanceAfter,
    conversion: conversionOf(row),
  };
}
