/**
 * The app under test: a budgeting app's bank import, as small as it can be. It reads a bank through
 * the pull endpoint with an API key (what it would do against a real aggregator), counts a pending
 * payment once — also after it posts with a different amount — and sums spending by category.
 */

export interface BankLink {
  baseUrl: string;
  apiKey: string;
  owner: string;
}

export interface BankTransaction {
  id: string;
  accountId: string;
  amount: number;
  date: string;
  description: string;
  status: 'pending' | 'posted' | 'voided';
  merchant: string | null;
  category: string | null;
}

/** Every transaction of the owner in the last `days` days, following the pages. */
export async function importTransactions(bank: BankLink, days = 400): Promise<BankTransaction[]> {
  const from = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  const rows: BankTransaction[] = [];
  for (let page = 1; ; page++) {
    const url = `${bank.baseUrl}/api/owner/${encodeURIComponent(bank.owner)}/transactions?from=${from}&limit=200&page=${page}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${bank.apiKey}` } });
    if (!response.ok) throw new Error(`the bank answered ${response.status}`);
    const body = (await response.json()) as { data: BankTransaction[]; meta: { hasMore: boolean } };
    rows.push(...body.data);
    if (!body.meta.hasMore) return rows;
  }
}

/** The app's ledger: one entry per bank transaction id (a pending payment that posts is the same entry). */
export function ledger(transactions: BankTransaction[]): Map<string, BankTransaction> {
  const entries = new Map<string, BankTransaction>();
  for (const transaction of transactions) {
    if (transaction.status === 'voided') entries.delete(transaction.id);
    else entries.set(transaction.id, transaction);
  }
  return entries;
}

/** Spending (debits, as positive minor units) by category, pending included. */
export function spendingByCategory(entries: Map<string, BankTransaction>): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const entry of entries.values()) {
    if (entry.amount >= 0) continue;
    const category = entry.category ?? 'uncategorised';
    totals[category] = (totals[category] ?? 0) - entry.amount;
  }
  return totals;
}
