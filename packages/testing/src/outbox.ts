/**
 * Writes what a simulated transaction writes, by SQL, per the outbox contract: the balance
 * update, the transaction row and its `transaction.created` event row in one statement. Tests
 * use it where they need events without the simulation endpoint (e.g. to control timing).
 */
import { v7 as uuidv7 } from 'uuid';

interface Queryable {
  query<R extends object>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

export interface SimulatedTransaction {
  id: string;
  externalTxnId: string;
  accountId: string;
  amount: number;
  currency: 'PLN';
  date: string;
  description: string;
  raw: { source: string };
}

export async function insertAccount(db: Queryable, userId: string, name = `Account ${uuidv7()}`): Promise<string> {
  const id = uuidv7();
  await db.query(`insert into accounts (id, user_id, name) values ($1, $2, $3)`, [id, userId, name]);
  return id;
}

/** One committed transaction and its event; returns both as the API shows them. */
export async function insertTransactionEvent(
  db: Queryable,
  {
    userId,
    accountId,
    amount = 1250,
    description = 'Test transaction',
  }: { userId: string; accountId: string; amount?: number; description?: string },
): Promise<{ eventId: string; transaction: SimulatedTransaction; createdAt: string }> {
  const transaction: SimulatedTransaction = {
    id: uuidv7(),
    externalTxnId: `ext-${uuidv7()}`,
    accountId,
    amount,
    currency: 'PLN',
    date: new Date().toISOString(),
    description,
    raw: { source: 'sandbank-simulator' },
  };
  const eventId = uuidv7();
  const { rows } = await db.query<{ created_at: Date }>(
    `with account as (
       update accounts set balance = balance + $4, transaction_count = transaction_count + 1
        where id = $3 and user_id = $2 returning id
     ), txn as (
       insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw)
       select $5, id, $2, $6, $4, 'PLN', $7, $8, $9 from account returning id
     )
     insert into events (id, type, user_id, payload)
     select $1, 'transaction.created', $2, $10 from txn
     returning created_at`,
    [
      eventId,
      userId,
      accountId,
      amount,
      transaction.id,
      transaction.externalTxnId,
      transaction.date,
      description,
      JSON.stringify(transaction.raw),
      JSON.stringify({ transaction }),
    ],
  );
  const [row] = rows;
  if (!row) throw new Error('the account does not exist or the balance would go below zero');
  return { eventId, transaction, createdAt: row.created_at.toISOString() };
}
