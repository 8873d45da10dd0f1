/** Ledger assertions shared by the ledger tests: read the ledger straight from the database and check its invariants. */
import { expect } from 'vitest';
import type { TestApp } from './helpers.ts';

export interface LedgerRow {
  id: string;
  external_txn_id: string;
  amount: number;
  status: 'pending' | 'posted' | 'voided';
  version: number;
  reversal_of: string | null;
  reversed_amount: number;
}

export interface LedgerState {
  balance: number;
  heldAmount: number;
  transactionCount: number;
  status: string;
  transactions: LedgerRow[];
  events: { id: string; type: string; user_id: string; payload: { transaction: Record<string, unknown>; balances?: unknown } }[];
}

/** The account's balances, its transaction rows and the events about them, read with SQL. */
export async function ledgerOf(app: TestApp, accountId: string): Promise<LedgerState> {
  const { rows: accounts } = await app.db.query(
    'select balance, held_amount, status, transaction_count from accounts where id = $1',
    [accountId],
  );
  const account = accounts[0];
  if (!account) throw new Error(`No account ${accountId}`);
  const { rows: transactions } = await app.db.query(
    `select id, external_txn_id, amount, status, version, reversal_of, reversed_amount from transactions
      where account_id = $1 order by id`,
    [accountId],
  );
  const { rows: events } = await app.db.query(
    `select id, type, user_id, payload from events where payload->'transaction'->>'accountId' = $1 order by id`,
    [accountId],
  );
  return {
    balance: Number(account.balance),
    heldAmount: Number(account.held_amount),
    transactionCount: Number(account.transaction_count),
    status: account.status,
    transactions: transactions.map((row) => ({
      ...row,
      amount: Number(row.amount),
      reversed_amount: Number(row.reversed_amount),
    })),
    events,
  };
}

/**
 * The ledger's invariants (docs/concepts/lifecycle.md): balance = Σ posted amounts, held = Σ |pending debits|, available ≥ 0,
 * the count of pending and posted rows kept right, reversals within their originals, exactly one
 * transaction.created per transaction, and one more event per version after the first.
 */
/** `events: false` for rows a scenario wrote in bulk (one scenario.applied event, none per transaction). */
export function expectConsistent(ledger: LedgerState, { events = true }: { events?: boolean } = {}): void {
  const posted = ledger.transactions.filter((row) => row.status === 'posted');
  expect(ledger.balance).toBe(posted.reduce((total, row) => total + row.amount, 0));
  const pendingDebits = ledger.transactions.filter((row) => row.status === 'pending' && row.amount < 0);
  expect(ledger.heldAmount).toBe(pendingDebits.reduce((total, row) => total - row.amount, 0));
  expect(ledger.balance - ledger.heldAmount).toBeGreaterThanOrEqual(0);
  expect(ledger.transactionCount).toBe(ledger.transactions.filter((row) => row.status !== 'voided').length);
  for (const row of ledger.transactions) {
    const reversals = ledger.transactions.filter((other) => other.reversal_of === row.id);
    expect(reversals.reduce((total, other) => total + Math.abs(other.amount), 0)).toBe(row.reversed_amount);
    expect(row.reversed_amount).toBeLessThanOrEqual(Math.abs(row.amount));
  }
  if (!events) return;
  const created = ledger.events.filter((event) => event.type === 'transaction.created');
  expect(created.map((event) => event.payload.transaction.id).sort()).toEqual(ledger.transactions.map((row) => row.id).sort());
  for (const row of ledger.transactions) {
    const about = ledger.events.filter((event) => event.payload.transaction.id === row.id);
    expect(about).toHaveLength(row.version);
  }
}
