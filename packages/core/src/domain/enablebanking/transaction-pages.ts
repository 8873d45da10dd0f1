/**
 * The Enable Banking face's pages of an account's transactions (docs/faces/enablebanking.md): the booked
 * entries of whole Warsaw days `from`…`to`, oldest posting first, then the pending ones whose value date
 * is in them. A page starts after a position — the last entry of the page before: its (posted_at, id)
 * and the booked balance right after it, or a pending entry's (date, id) — so every page is one range of
 * an index (`transactions_posting_order_idx`, the history's for pending ones), whatever its depth. The
 * balance before a period is a sum over that index alone; later pages carry it forward.
 */
import type { EntityManager } from '@sandbank/db';
import { type PendingEntry, toPendingEntry } from '../statements/pending-entries.ts';
import { type StatementEntry, toEntry } from '../statements/statement.ts';
import { selectBookedAfter, selectOpeningBalance, selectPendingAfter } from './queries/transaction-pages.ts';

/** Where a page starts: after a booked entry (with the balance after it) or after a pending one. */
export type PagePosition =
  | { phase: 'booked'; postedAt: string; id: string; balance: bigint }
  | { phase: 'pending'; date: string; id: string };

export type PageEntry =
  | { status: 'booked'; entry: StatementEntry; position: PagePosition }
  | { status: 'pending'; entry: PendingEntry; position: PagePosition };

export interface TransactionPageParams {
  accountId: string;
  /** Inclusive local days `YYYY-MM-DD`, already checked and pinned by the caller. */
  from: string;
  to: string;
  booked: boolean;
  pending: boolean;
  /** The previous page's last entry; null for the first page. */
  after: PagePosition | null;
  /** At most this many entries. */
  limit: number;
}

/** Up to `limit` entries after `after`: booked ones in posting order, then pending ones; each with its position. */
export async function readTransactionPage(em: EntityManager, params: TransactionPageParams): Promise<PageEntry[]> {
  const { accountId, from, to, after, limit } = params;
  const out: PageEntry[] = [];
  if (params.booked && after?.phase !== 'pending') {
    let balance = after ? after.balance : BigInt(await selectOpeningBalance(em, accountId, from));
    const rows = await selectBookedAfter(em, {
      accountId,
      from,
      to,
      after: after ? { at: after.postedAt, id: after.id } : null,
      limit,
    });
    for (const row of rows) {
      balance += BigInt(row.amount);
      out.push({
        status: 'booked',
        entry: toEntry(row, Number(balance)),
        position: { phase: 'booked', postedAt: row.position, id: row.id, balance },
      });
    }
  }
  if (params.pending && out.length < limit) {
    const rows = await selectPendingAfter(em, {
      accountId,
      from,
      to,
      after: after?.phase === 'pending' ? { at: after.date, id: after.id } : null,
      limit: limit - out.length,
    });
    for (const row of rows) {
      out.push({ status: 'pending', entry: toPendingEntry(row), position: { phase: 'pending', date: row.position, id: row.id } });
    }
  }
  return out;
}
