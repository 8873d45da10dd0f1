/**
 * Accounts and transactions inserted with SQL, for exact dates (day edges such as 23:59:59.999Z)
 * and states (closed accounts) that the public endpoints cannot produce on demand.
 */
import { v7 as uuidv7 } from 'uuid';
import type { TestApp } from './helpers.ts';

export async function insertAccount(app: TestApp, userId: string, options: { name?: string; closed?: boolean } = {}) {
  const id = uuidv7();
  await app.orm.em
    .fork()
    .execute(
      `insert into accounts (id, user_id, name, status, closed_at) values (?, ?, ?, ?, ${options.closed ? 'now()' : 'null'})`,
      [id, userId, options.name ?? `Account ${id.slice(-6)}`, options.closed ? 'closed' : 'open'],
    );
  return id;
}

export async function insertTransaction(
  app: TestApp,
  accountId: string,
  options: { date: string | Date; amount?: number; description?: string },
): Promise<string> {
  const id = uuidv7();
  const date = new Date(options.date).toISOString();
  await app.orm.em.fork().execute(
    `with account as (
       update accounts set transaction_count = transaction_count + 1 where id = ? returning id, user_id
     )
     insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw)
       select ?, id, user_id, ?, ?, ?, ?, ?, ? from account`,
    [
      accountId,
      id,
      `ext-${id}`,
      options.amount ?? 1000,
      'PLN',
      date,
      options.description ?? 'Test',
      '{"source":"sandbank-simulator"}',
    ],
  );
  return id;
}
