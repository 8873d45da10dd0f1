/**
 * Plaid's official SDK (`plaid` on npm, unchanged) pointed at a test app's `/plaid`, and what an app
 * built on it keeps: the Item's access token, the saved cursor and the ledger it rebuilds from
 * `/transactions/sync` (upsert added and modified by `transaction_id`, delete removed).
 */

import { Configuration, PlaidApi, Products, type Transaction } from 'plaid';
import { expect } from 'vitest';
import type { TestApp, TestUser } from './helpers.ts';
import { expectPlaidResponse } from './plaid-openapi.ts';

/** A Plaid client for `user`: client_id = the user id, secret = a new API key of theirs. */
export async function plaidClientOf(app: TestApp, user: TestUser, secret?: string): Promise<PlaidApi> {
  let key = secret;
  if (!key) {
    const created = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'Plaid' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    key = created.body.data.key as string;
  }
  return new PlaidApi(
    new Configuration({
      basePath: `${app.url}/plaid`,
      baseOptions: { headers: { 'PLAID-CLIENT-ID': user.id, 'PLAID-SECRET': key } },
    }),
  );
}

/** Sandbox public token → exchange: the access token and item id, as Plaid's quickstart does it. */
export async function linkItem(client: PlaidApi): Promise<{ accessToken: string; itemId: string }> {
  const created = await client.sandboxPublicTokenCreate({
    institution_id: 'ins_sandbank',
    initial_products: [Products.Transactions],
  });
  expectPlaidResponse('/sandbox/public_token/create', created.data);
  const exchanged = await client.itemPublicTokenExchange({ public_token: created.data.public_token });
  expectPlaidResponse('/item/public_token/exchange', exchanged.data);
  return { accessToken: exchanged.data.access_token, itemId: exchanged.data.item_id };
}

export interface Changes {
  added: Transaction[];
  modified: Transaction[];
  removed: string[];
}

/** What an app keeps: its cursor and its transactions by id. */
export class AppLedger {
  cursor: string | null = null;
  readonly transactions = new Map<string, Transaction>();

  private readonly client: PlaidApi;
  private readonly accessToken: string;

  constructor(client: PlaidApi, accessToken: string) {
    this.client = client;
    this.accessToken = accessToken;
  }

  /** One full sync from the saved cursor (following has_more), applied; the changes it brought. */
  async syncOnce(count = 500): Promise<Changes> {
    const changes: Changes = { added: [], modified: [], removed: [] };
    for (;;) {
      const { data } = await this.client.transactionsSync({
        access_token: this.accessToken,
        count,
        ...(this.cursor === null ? {} : { cursor: this.cursor }),
      });
      expectPlaidResponse('/transactions/sync', data);
      changes.added.push(...data.added);
      changes.modified.push(...data.modified);
      changes.removed.push(...data.removed.map((removed) => removed.transaction_id));
      for (const transaction of [...data.added, ...data.modified]) this.transactions.set(transaction.transaction_id, transaction);
      for (const removed of data.removed) this.transactions.delete(removed.transaction_id);
      this.cursor = data.next_cursor;
      if (!data.has_more) return changes;
    }
  }

  /**
   * Syncs until `ready` holds for everything synced since this call began (the event log serves a
   * change once every older database transaction of the cluster has finished, so a change just
   * committed can take a moment to appear).
   */
  async syncUntil(ready: (changes: Changes) => boolean): Promise<Changes> {
    const all: Changes = { added: [], modified: [], removed: [] };
    await expect
      .poll(async () => {
        const more = await this.syncOnce();
        all.added.push(...more.added);
        all.modified.push(...more.modified);
        all.removed.push(...more.removed);
        return ready(all);
      })
      .toBe(true);
    return all;
  }

  /** Balances in grosze as the app computes them: current = −Σ posted amounts; available also less pending debits. */
  balances(accountId: string): { current: number; available: number } {
    let current = 0;
    let held = 0;
    for (const transaction of this.transactions.values()) {
      if (transaction.account_id !== accountId) continue;
      const minor = Math.round(transaction.amount * 100);
      if (transaction.pending) held += Math.max(minor, 0);
      else current -= minor;
    }
    return { current, available: current - held };
  }
}
