/** Helpers shared by the ledger tests: open accounts, simulate, and read the ledger straight from the database. */
import { expect } from 'vitest';
import type { TestApp, TestUser } from './helpers.ts';

export interface SimulationBody {
  accountId: string;
  amount: number;
  description?: string;
  externalTxnId?: string;
  date?: string;
  currency?: string;
}

export async function openAccount(app: TestApp, user: TestUser, name = `Account ${crypto.randomUUID()}`): Promise<string> {
  const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

export const simulate = (app: TestApp, user: TestUser, body: SimulationBody) =>
  app.call('POST', '/v1/simulations/transaction', { token: user.accessToken, body });

export interface LedgerState {
  balance: number;
  transactionCount: number;
  status: string;
  transactions: { id: string; external_txn_id: string; amount: number }[];
  events: { id: string; type: string; user_id: string; payload: { transaction: Record<string, unknown> } }[];
}

/** The account's balance, its transaction rows and the events about them, read with SQL. */
export async function ledgerOf(app: TestApp, accountId: string): Promise<LedgerState> {
  const em = app.orm.em.fork();
  const [account] = await em.execute('select balance, status, transaction_count from accounts where id = ?', [accountId]);
  if (!account) throw new Error(`No account ${accountId}`);
  const transactions = await em.execute('select id, external_txn_id, amount from transactions where account_id = ? order by id', [
    accountId,
  ]);
  const events = await em.execute(
    `select id, type, user_id, payload from events where payload->'transaction'->>'accountId' = ? order by id`,
    [accountId],
  );
  return {
    balance: Number(account.balance),
    transactionCount: Number(account.transaction_count),
    status: account.status,
    transactions: transactions.map((row) => ({ ...row, amount: Number(row.amount) })),
    events,
  } as LedgerState;
}

/** balance = Σ amounts, never negative, the count kept right, and exactly one event per transaction. */
export function expectConsistent(ledger: LedgerState): void {
  const sum = ledger.transactions.reduce((total, row) => total + row.amount, 0);
  expect(ledger.balance).toBe(sum);
  expect(ledger.transactionCount).toBe(ledger.transactions.length);
  expect(ledger.balance).toBeGreaterThanOrEqual(0);
  expect(ledger.events.map((event) => event.payload.transaction.id).sort()).toEqual(
    ledger.transactions.map((row) => row.id).sort(),
  );
}
