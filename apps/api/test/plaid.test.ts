/**
 * The Plaid face end to end with Plaid's official SDK (`plaid` 47, unchanged, `basePath` = the test
 * server's /plaid): link an Item, read accounts and balances, sync from no cursor to the end; then
 * change the world — a pending card payment, its post with a tip, a void, a reversal, a description
 * patch, a clock advance over a salary schedule — and after each, sync from the saved cursor gives
 * exactly Plaid's added/modified/removed, and the ledger the app rebuilds equals Sandbank's balances.
 * Every response is checked against Plaid's published OpenAPI document.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { Products } from 'plaid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { lifecycleCalls } from './lifecycle-calls.ts';
import { AppLedger, type Changes, linkItem, plaidClientOf } from './plaid-calls.ts';
import { expectPlaidResponse } from './plaid-openapi.ts';
import { worldCalls } from './world-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const { act, patch, pendingCard } = lifecycleCalls(() => app);
const { advance, schedule, runs } = worldCalls(() => app);

const ids = (list: { transaction_id: string }[]) => list.map((transaction) => transaction.transaction_id).sort();

async function expectLedgerMatches(ledger: AppLedger, user: TestUser, accountId: string) {
  const account = (await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken })).body.data;
  expect(ledger.balances(accountId)).toEqual({ current: account.balance, available: account.availableBalance });
  // No double count: no transaction the app holds is the pending one another names.
  const named = [...ledger.transactions.values()].map((transaction) => transaction.pending_transaction_id).filter(Boolean);
  expect(named.filter((id) => ledger.transactions.has(id as string))).toEqual([]);
}

describe('Plaid face with the official SDK', () => {
  it('links, syncs from nothing, then follows every lifecycle change exactly as Plaid reports them', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Konto osobiste');
    expect(
      (await simulate(app, user, { accountId, amount: 2_000_00, description: 'Przelew', category: 'transfer' })).status,
    ).toBe(201);
    await simulate(app, user, { accountId, amount: -12_34, description: 'BILET ZTM', merchant: 'ZTM', category: 'transport' });
    const earlier = await pendingCard(user, accountId, -7_50);
    const client = await plaidClientOf(app, user);
    const { accessToken, itemId } = await linkItem(client);
    // An account opened after the link is not in the Item, as at a real bank.
    const later = await openAccount(app, user, 'Później');
    await simulate(app, user, { accountId: later, amount: 50_00 });

    const accounts = await client.accountsGet({ access_token: accessToken });
    expectPlaidResponse('/accounts/get', accounts.data);
    expect(accounts.data.item.item_id).toBe(itemId);
    expect(accounts.data.accounts).toMatchObject([
      {
        account_id: accountId,
        name: 'Konto osobiste',
        type: 'depository',
        balances: { current: 1987.66, available: 1980.16, iso_currency_code: 'PLN' },
      },
    ]);
    const balances = await client.accountsBalanceGet({ access_token: accessToken });
    expectPlaidResponse('/accounts/balance/get', balances.data);
    expect(balances.data.accounts.map((account) => account.balances.current)).toEqual([1987.66]);
    const item = await client.itemGet({ access_token: accessToken });
    expectPlaidResponse('/item/get', item.data);
    expect(item.data.item).toMatchObject({ item_id: itemId, institution_id: 'ins_sandbank', error: null });
    const institution = await client.institutionsGetById({ institution_id: 'ins_sandbank', country_codes: ['PL' as never] });
    expectPlaidResponse('/institutions/get_by_id', institution.data);

    const ledger = new AppLedger(client, accessToken);
    const first = await ledger.syncOnce(1); // one per page, to walk the snapshot's pages
    // A row committed while the snapshot began may come again from the log (clients upsert by id).
    expect(new Set(ids(first.added)).size).toBe(3);
    expect(ledger.transactions.size).toBe(3);
    expect(first.modified).toEqual([]);
    expect(first.removed).toEqual([]);
    const pending = first.added.find((transaction) => transaction.pending);
    expect(pending).toMatchObject({
      transaction_id: `pending-${earlier.id}`,
      pending_transaction_id: null,
      amount: 7.5,
      merchant_name: 'Żabka',
      personal_finance_category: { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_GROCERIES' },
      iso_currency_code: 'PLN',
    });
    expect(first.added.find((transaction) => transaction.name === 'BILET ZTM')).toMatchObject({ amount: 12.34, pending: false });
    await expectLedgerMatches(ledger, user, accountId);

    // A pending card payment.
    const card = await pendingCard(user, accountId, -25_00);
    const added = await ledger.syncUntil((changes) => changes.added.length > 0);
    expect([ids(added.added), added.modified, added.removed]).toEqual([[`pending-${card.id}`], [], []]);
    await expectLedgerMatches(ledger, user, accountId);

    // It posts with a tip: a new transaction naming the pending one, whose id is removed.
    expect((await act(user, card.id, 'post', { amount: -28_00 })).status).toBe(200);
    const posted = await ledger.syncUntil((changes) => changes.added.length > 0);
    expect([ids(posted.added), posted.modified, posted.removed]).toEqual([[`posted-${card.id}`], [], [`pending-${card.id}`]]);
    expect(posted.added[0]).toMatchObject({ pending: false, pending_transaction_id: `pending-${card.id}`, amount: 28 });
    await expectLedgerMatches(ledger, user, accountId);

    // A void: the pending one is removed.
    expect((await act(user, earlier.id, 'void')).status).toBe(200);
    const voided = await ledger.syncUntil((changes) => changes.removed.length > 0);
    expect(voided).toEqual({ added: [], modified: [], removed: [`pending-${earlier.id}`] } satisfies Changes);
    await expectLedgerMatches(ledger, user, accountId);

    // A reversal of the posted payment: a new transaction, money in.
    const reversal = await act(user, card.id, 'reverse', { amount: 10_00 });
    expect(reversal.status).toBe(201);
    const reversed = await ledger.syncUntil((changes) => changes.added.length > 0);
    expect([ids(reversed.added), reversed.modified, reversed.removed]).toEqual([
      [`posted-${reversal.body.data.transaction.id}`],
      [],
      [],
    ]);
    expect(reversed.added[0]).toMatchObject({ amount: -10, pending: false, pending_transaction_id: null });
    await expectLedgerMatches(ledger, user, accountId);

    // The bank cleans up the description: modified, under the posted id.
    expect((await patch(user, card.id, { description: 'Żabka Z1234 Warszawa', merchant: 'Żabka' })).status).toBe(200);
    const patched = await ledger.syncUntil((changes) => changes.modified.length > 0);
    expect([patched.added, ids(patched.modified), patched.removed]).toEqual([[], [`posted-${card.id}`], []]);
    expect(patched.modified[0]).toMatchObject({ name: 'Żabka Z1234 Warszawa', pending_transaction_id: `pending-${card.id}` });
    await expectLedgerMatches(ledger, user, accountId);

    // The clock moves two months over a monthly salary: each run is added, dated by the world's clock.
    const salary = await schedule(user, accountId, {
      amount: 8_000_00,
      description: 'Wynagrodzenie',
      category: 'salary',
      rrule: 'FREQ=MONTHLY;BYMONTHDAY=10',
    });
    expect(salary.status, JSON.stringify(salary.body)).toBe(201);
    expect((await advance(user, { by: 'P2M' })).status).toBe(200);
    const booked = (await runs(user, salary.body.data.id)).map((run) => `posted-${run.transactionId}`).sort();
    expect(booked.length).toBeGreaterThanOrEqual(2);
    const paid = await ledger.syncUntil((changes) => changes.added.length >= booked.length);
    expect([ids(paid.added), paid.modified, paid.removed]).toEqual([booked, [], []]);
    expect(paid.added.every((transaction) => transaction.amount === -8000 && transaction.date.endsWith('-10'))).toBe(true);
    expect(paid.added[0]?.personal_finance_category).toMatchObject({ primary: 'INCOME', detailed: 'INCOME_WAGES' });
    await expectLedgerMatches(ledger, user, accountId);

    // Nothing new: an empty page, the same cursor back.
    const cursor = ledger.cursor;
    expect(await ledger.syncOnce()).toEqual({ added: [], modified: [], removed: [] });
    expect(ledger.cursor).toBe(cursor);
    // The other account never appears.
    expect([...ledger.transactions.values()].every((transaction) => transaction.account_id === accountId)).toBe(true);

    const window = await client.transactionsGet({
      access_token: accessToken,
      start_date: '2000-01-01',
      end_date: '2100-01-01',
      options: { count: 500 },
    });
    expectPlaidResponse('/transactions/get', window.data);
    expect(ids(window.data.transactions)).toEqual([...ledger.transactions.keys()].sort());
    expect(window.data.total_transactions).toBe(ledger.transactions.size);
  });

  it('serves the rest of the surface in the shapes of Plaid’s document', async () => {
    const user = await app.createUser();
    await openAccount(app, user);
    const client = await plaidClientOf(app, user);
    const { accessToken, itemId } = await linkItem(client);
    const link = await client.linkTokenCreate({
      client_name: 'Budget app',
      language: 'pl',
      country_codes: ['PL' as never],
      user: { client_user_id: 'user-1' },
      products: [Products.Transactions],
    });
    expectPlaidResponse('/link/token/create', link.data);
    expect(link.data.link_token).toMatch(/^link-sandbox-/);
    expectPlaidResponse('/transactions/refresh', (await client.transactionsRefresh({ access_token: accessToken })).data);
    const updated = await client.itemWebhookUpdate({ access_token: accessToken, webhook: 'http://127.0.0.1:9/hook' });
    expectPlaidResponse('/item/webhook/update', updated.data);
    expect(updated.data.item).toMatchObject({ item_id: itemId, webhook: 'http://127.0.0.1:9/hook' });
    const fired = await client.sandboxItemFireWebhook({
      access_token: accessToken,
      webhook_code: 'SYNC_UPDATES_AVAILABLE' as never,
    });
    expectPlaidResponse('/sandbox/item/fire_webhook', fired.data);
    const { rows } = await app.db.query('select kid from plaid_signing_keys where retired_at is null');
    const key = await client.webhookVerificationKeyGet({ key_id: rows[0].kid });
    expectPlaidResponse('/webhook_verification_key/get', key.data);
    expect(key.data.key).toMatchObject({ alg: 'ES256', kty: 'EC', crv: 'P-256', use: 'sig', kid: rows[0].kid, expired_at: null });
    expect(key.data.key).not.toHaveProperty('d'); // never the private half
    const cleared = await client.itemWebhookUpdate({ access_token: accessToken, webhook: null as never });
    expect(cleared.data.item.webhook).toBeNull();
  });
});
