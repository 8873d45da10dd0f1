/**
 * `/transactions/sync`'s `count` bounds every page's updates (added + modified + removed), though a
 * pending → posted transition is two of them (the posted one added, the pending id removed). Paging
 * with `count` 1, 2 and 3 through many such transitions, the app's ledger ends equal to a full sync
 * from nothing, and no update comes twice.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import type { PlaidApi, Transaction } from 'plaid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';
import { lifecycleCalls } from './lifecycle-calls.ts';
import { AppLedger, linkItem, plaidClientOf } from './plaid-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const { act, pendingCard } = lifecycleCalls(() => app);

const view = (transactions: Iterable<Transaction>) =>
  Object.fromEntries([...transactions].map((t) => [t.transaction_id, { amount: t.amount, pending: t.pending }]));

/** Pages from `cursor` with `count` to the end, applying each page to `held`; every page's updates, in order. */
async function pageThrough(client: PlaidApi, accessToken: string, cursor: string, count: number, held: Map<string, Transaction>) {
  const pages: { added: string[]; modified: string[]; removed: string[] }[] = [];
  let next = cursor;
  for (;;) {
    const { data } = await client.transactionsSync({ access_token: accessToken, cursor: next, count });
    pages.push({
      added: data.added.map((t) => t.transaction_id),
      modified: data.modified.map((t) => t.transaction_id),
      removed: data.removed.map((r) => r.transaction_id),
    });
    for (const transaction of [...data.added, ...data.modified]) held.set(transaction.transaction_id, transaction);
    for (const removed of data.removed) held.delete(removed.transaction_id);
    next = data.next_cursor;
    if (!data.has_more) return pages;
    expect(pages.length, 'pages').toBeLessThan(100);
  }
}

describe('Plaid /transactions/sync count', () => {
  it('never holds more updates than count, and the pages add up to the whole state', { timeout: 60_000 }, async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Konto');
    expect((await simulate(app, user, { accountId, amount: 5_000_00 })).status).toBe(201);
    const cards = [];
    for (let i = 1; i <= 7; i++) cards.push(await pendingCard(user, accountId, -(100 + i) * 10));
    const client = await plaidClientOf(app, user);
    const { accessToken } = await linkItem(client);
    const seen = new AppLedger(client, accessToken);
    await seen.syncUntil(() => seen.transactions.size === 8);
    const before = { cursor: seen.cursor as string, transactions: new Map(seen.transactions) };

    // Every card the app holds as pending posts (some with a tip): each is a pair of updates.
    for (const [i, card] of cards.entries()) {
      expect((await act(user, card.id, 'post', i % 2 === 0 ? { amount: -(100 + i + 1) * 10 - 50 } : {})).status).toBe(200);
    }
    const whole = new AppLedger(client, accessToken);
    await whole.syncUntil(() => [...whole.transactions.values()].filter((t) => !t.pending).length === 8);
    expect(whole.transactions.size).toBe(8);

    for (const count of [1, 2, 3]) {
      const held = new Map(before.transactions);
      const pages = await pageThrough(client, accessToken, before.cursor, count, held);
      for (const page of pages) {
        expect(
          page.added.length + page.modified.length + page.removed.length,
          `count ${count}: ${JSON.stringify(page)}`,
        ).toBeLessThanOrEqual(count);
      }
      expect(view(held.values()), `count ${count}`).toEqual(view(whole.transactions.values()));
      // Each card comes once: its posted id added once, its pending id removed once.
      const added = pages.flatMap((page) => page.added).sort();
      const removed = pages.flatMap((page) => page.removed).sort();
      expect(added, `count ${count}`).toEqual(cards.map((card) => `posted-${card.id}`).sort());
      expect(removed, `count ${count}`).toEqual(cards.map((card) => `pending-${card.id}`).sort());
      expect(pages.flatMap((page) => page.modified)).toEqual([]);
    }

    // A cursor owing a removal is as opaque as any: altered, it is refused as Plaid refuses a bad cursor.
    const owing = (await client.transactionsSync({ access_token: accessToken, cursor: before.cursor, count: 1 })).data
      .next_cursor;
    expect(owing).toContain('.');
    const refused = await client.transactionsSync({ access_token: accessToken, cursor: `${owing}x`, count: 1 }).then(
      () => null,
      (error: { response?: { status: number; data: { error_code: string } } }) => error.response,
    );
    expect([refused?.status, refused?.data.error_code]).toEqual([400, 'INVALID_FIELD']);
  });
});
