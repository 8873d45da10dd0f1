/**
 * Sync throughput: one client pulls an owner's whole state through `GET /v1/transactions/sync`
 * from nothing (no cursor), 200 per page, following `nextCursor` while `hasMore` — what a budgeting
 * app does on first connect. Sequential on purpose: a sync client is one chain of cursors.
 */
export interface SyncResult {
  transactions: number;
  pages: number;
  seconds: number;
  transactionsPerSecond: number;
}

export async function measureSync(baseUrl: string, token: string, limit = 200): Promise<SyncResult> {
  const started = performance.now();
  let cursor: string | undefined;
  let transactions = 0;
  let pages = 0;
  for (;;) {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${baseUrl}/v1/transactions/sync?${query}`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`sync answered ${response.status}: ${await response.text()}`);
    const { data } = (await response.json()) as {
      data: { added: unknown[]; modified: unknown[]; removed: unknown[]; nextCursor: string; hasMore: boolean };
    };
    transactions += data.added.length + data.modified.length + data.removed.length;
    pages += 1;
    cursor = data.nextCursor;
    if (!data.hasMore) break;
  }
  const seconds = (performance.now() - started) / 1000;
  return { transactions, pages, seconds: Number(seconds.toFixed(2)), transactionsPerSecond: Math.round(transactions / seconds) };
}
