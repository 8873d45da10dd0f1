/** What every statement writer reads: the statement's head, its entries page by page, its pending entries. */
import type { PendingEntry, StatementEntry, StatementHead } from '@sandbank/core';

export interface StatementSource {
  head: StatementHead;
  /** The booked entries, oldest posting first; read once. */
  pages: AsyncIterable<StatementEntry[]>;
  /** Pending entries (camt.052 only; empty otherwise). */
  pending: PendingEntry[];
}
