/**
 * Actual Budget's budget engine (@actual-app/api 26.9.0, the code behind its app) with its own sync
 * server linking Sandbank accounts through Enable Banking and GoCardless, then `runBankSync` — what a
 * user of Actual sees, read back from Actual's budget file: the rows with their amounts, dates, payees
 * and cleared flags, the balance, a pending payment that posts turning the same row cleared, a new
 * payment arriving once, a re-sync adding nothing. The servers and the redirect are those of
 * actual-bank-sync.test.ts (actual-sync-server.ts); the engine talks only to Actual's server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PERSONALITIES } from '../../src/faces/personalities.ts';
import { gocardlessCalls } from '../gocardless-calls.ts';
import { type Loose, startTestApp, type TestApp, type TestUser } from '../helpers.ts';
import { lifecycleCalls } from '../lifecycle-calls.ts';
import {
  ACTUAL_PASSWORD,
  type ActualServer,
  balancesOf,
  ensureActualSyncServer,
  seedWithinToday,
  startActualSyncServer,
  utcDay,
} from './actual-sync-server.ts';
import { enablebankingCalls } from './enablebanking/calls.ts';
import { truthOf, warsawDay } from './personalities-helpers.ts';

/** A row of Actual's budget file, as `getTransactions` gives it. */
interface Row {
  id: string;
  date: string;
  imported_id: string | null;
  amount: number;
  cleared: boolean;
  payee: string | null;
  imported_payee: string | null;
  notes: string | null;
  starting_balance_flag: boolean;
}
/** The part of @actual-app/api used here (not a dependency of this repository, so neither are its types). */
interface ActualApi {
  init(config: { dataDir: string; serverURL: string; password: string }): Promise<{
    send(name: string, args?: unknown): Promise<Loose>;
  }>;
  getAccounts(): Promise<{ id: string; name: string }[]>;
  getPayees(): Promise<{ id: string; name: string }[]>;
  getTransactions(accountId: string, from: string, to: string): Promise<Row[]>;
  getAccountBalance(accountId: string, cutoff?: Date): Promise<number>;
  runBankSync(args: { accountId: string }): Promise<void>;
  shutdown(): Promise<void>;
}

let app: TestApp;
let server: ActualServer;
let api: ActualApi;
let engine: Awaited<ReturnType<ActualApi['init']>>;
let dataDir: string;
beforeAll(async () => {
  // The engine logs every step of a sync to the console; its warnings and errors still show.
  for (const level of ['log', 'info', 'debug'] as const) vi.spyOn(console, level).mockImplementation(() => {});
  const installed = ensureActualSyncServer();
  app = await startTestApp();
  server = await startActualSyncServer(installed, app.url);
  api = createRequire(path.join(installed, 'package.json'))('@actual-app/api') as ActualApi;
  dataDir = mkdtempSync(path.join(tmpdir(), 'sandbank-actual-budget-'));
  engine = await api.init({ dataDir, serverURL: server.url, password: ACTUAL_PASSWORD });
  await engine.send('create-budget', { budgetName: `Sandbank ${Date.now()}`, avoidUpload: true });
}, 900_000);
afterAll(async () => {
  await api?.shutdown();
  await server?.stop();
  await app?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

const { register } = enablebankingCalls(() => app);
const { secrets, decide } = gocardlessCalls(() => app);
const { act } = lifecycleCalls(() => app);

/** The budget's rows of one account (its opening balance apart), each with its payee's name. */
async function rowsOf(accountId: string) {
  const payees = new Map((await api.getPayees()).map((payee) => [payee.id, payee.name]));
  const rows = await api.getTransactions(accountId, '2000-01-01', '2100-01-01');
  return {
    opening: rows.filter((row) => row.starting_balance_flag),
    rows: rows
      .filter((row) => !row.starting_balance_flag)
      .map((row) => ({ ...row, payeeName: row.payee ? payees.get(row.payee) : undefined })),
  };
}

/**
 * The budget account's balance with every row counted: Actual counts rows up to its own (UTC) day by
 * default, and a Polish bank's row is dated by the Warsaw day, a day later from midnight in Warsaw to
 * midnight UTC.
 */
const balanceOf = (budgetId: string) => api.getAccountBalance(budgetId, new Date(Date.now() + 2 * 86_400_000));

/** The linked budget account, found by what Actual named it. */
async function budgetAccount(before: Set<string>) {
  const added = (await api.getAccounts()).filter((account) => !before.has(account.id));
  expect(added).toHaveLength(1);
  return added[0]?.id ?? '';
}

/**
 * Sandbank's transactions of the account that Actual's Enable Banking sync asks for: pending and posted
 * (voided ones left out), of a Warsaw day up to Actual's own UTC day (its `date_to`; from midnight in
 * Warsaw to midnight UTC, today's entries wait for the next day). `whole` says whether that is all of them.
 */
async function sandbankTransactions(user: TestUser, accountId: string) {
  const res = await app.call('GET', `/v1/accounts/${accountId}/transactions`, { token: user.accessToken });
  const all = (res.body.data as Loose[]).filter((t) => t.status === 'posted' || t.status === 'pending');
  const asked = all.filter((t) => warsawDay(t.status === 'posted' ? t.postedAt : t.date) <= utcDay());
  return Object.assign(asked, { whole: asked.length === all.length });
}

describe("Actual's budget engine over Enable Banking", () => {
  it('links through Actual, imports, and runBankSync follows what happens at the bank', async () => {
    const user = await app.createUser();
    const { accountId, pendingId } = await seedWithinToday(app, user);
    const redirectUrl = `${server.url}/enablebanking/auth_callback`;
    const application = await register(user, [redirectUrl]);
    expect(
      await engine.send('enablebanking-configure', { applicationId: application.id, secretKey: application.privateKey }),
    ).toEqual({
      configured: true,
    });
    const started = await engine.send('enablebanking-start-auth', { aspspId: 'Sandbank Sandbox', country: 'PL', redirectUrl });
    // The user's browser opens the consent URL: Sandbank Sandbox approves at once, back to Actual's callback.
    expect((await fetch(String(started.url))).status).toBe(200);
    const session = await engine.send('enablebanking-poll-auth', { state: started.state });
    expect(session.accounts).toHaveLength(1);
    const before = new Set((await api.getAccounts()).map((account) => account.id));
    await engine.send('enablebanking-accounts-link', { externalAccount: session.accounts[0] });
    const budgetId = await budgetAccount(before);

    const view = (rows: Awaited<ReturnType<typeof rowsOf>>['rows']) =>
      rows
        .map((row) => ({
          id: row.imported_id,
          amount: row.amount,
          date: row.date,
          payee: row.payeeName,
          notes: row.notes,
          cleared: row.cleared,
        }))
        .sort((a, b) => String(a.id).localeCompare(String(b.id)));
    const truth = (list: Loose[]) =>
      list
        .map((t) => ({
          id: t.id,
          amount: Number(t.amount),
          date: warsawDay(t.status === 'posted' ? t.postedAt : t.date),
          payee: t.merchant,
          notes: t.description,
          cleared: t.status === 'posted',
        }))
        .sort((a, b) => a.id.localeCompare(b.id));

    const imported = await rowsOf(budgetId);
    expect(view(imported.rows)).toEqual(truth(await sandbankTransactions(user, accountId)));
    expect(imported.opening).toHaveLength(1);
    // Actual's opening balance is the reported available balance (CLAV) less everything imported, so its
    // balance is Sandbank's available balance: booked less the pending card payment.
    expect(await balanceOf(budgetId)).toBe((await balancesOf(app, user, accountId)).availableBalance);

    // At the bank: the pending card payment posts and a new payment arrives.
    expect((await act(user, pendingId, 'post')).status).toBe(200);
    const fuel = await simulate(app, user, { accountId, amount: -150_00, merchant: 'Orlen', description: 'ORLEN 123' });
    expect(fuel.status).toBe(201);
    await api.runBankSync({ accountId: budgetId });
    const synced = await rowsOf(budgetId);
    const now = await sandbankTransactions(user, accountId);
    expect(view(synced.rows)).toEqual(truth(now));
    const cardRow = (list: Row[]) => list.find((row) => row.imported_id === pendingId);
    expect(cardRow(synced.rows)?.id).toBe(cardRow(imported.rows)?.id);
    // Actual keeps its opening balance and adds what it imports: Sandbank's available balance again, once
    // Actual has asked for every entry.
    if (now.whole) expect(await balanceOf(budgetId)).toBe((await balancesOf(app, user, accountId)).availableBalance);

    await api.runBankSync({ accountId: budgetId });
    expect((await rowsOf(budgetId)).rows).toHaveLength(synced.rows.length);
  });
});

const MBANK = PERSONALITIES.find((p) => p.gocardless.id === 'MBANK_RETAIL_BREXPLPW');
if (!MBANK) throw new Error('mBank is not among the personalities');

describe("Actual's budget engine over GoCardless, at mBank", () => {
  it("links through Actual, imports what mBank's normaliser makes of our data, and runBankSync adds what is new", async () => {
    const user = await app.createUser();
    const { secretId, secretKey } = await secrets(user);
    await engine.send('secret-set', { name: 'gocardless_secretId', value: secretId });
    await engine.send('secret-set', { name: 'gocardless_secretKey', value: secretKey });
    const { accountId } = await seedWithinToday(app, user);

    // The link is asked for by Actual's web app (its browser sends the Origin the redirect goes back to).
    const token = await server.call<{ data: { link: string; requisitionId: string } }>(
      '/gocardless/create-web-token',
      { institutionId: MBANK.gocardless.id },
      { origin: server.url },
    );
    const { requisitionId } = token.data;
    expect((await decide(user, requisitionId, { approve: true, accountIds: [accountId] })).body.data.status).toBe('LN');
    const polled = await engine.send('gocardless-poll-web-token', { requisitionId });
    const account = polled.data.accounts[0];
    const before = new Set((await api.getAccounts()).map((budget) => budget.id));
    // A starting date, as Actual's link dialog offers: by default Actual asks for "89 days ago" of its UTC
    // day, which mBank's 90-day agreement refuses when the world's Warsaw day is a day later (from
    // midnight in Warsaw to midnight UTC, or a world clock moved on): docs/faces/gocardless.md.
    await engine.send('gocardless-accounts-link', { requisitionId, account, startingDate: utcDay(-30) });
    const budgetId = await budgetAccount(before);

    const truth = await truthOf(app, user, accountId, MBANK);
    const view = (rows: Awaited<ReturnType<typeof rowsOf>>['rows']) =>
      rows
        .map((row) => ({ id: row.imported_id, amount: row.amount, date: row.date, payee: row.payeeName, cleared: row.cleared }))
        .sort((a, b) => `${a.date}${a.amount}`.localeCompare(`${b.date}${b.amount}`));
    const expected = () =>
      [
        // mBank's normaliser: the bank's dated id, the day from valueDate (the native date).
        ...truth.booked.map((t) => ({
          id: t.bankId,
          amount: Number(t.amount),
          date: warsawDay(t.date),
          cleared: true,
          payee: t.merchant,
        })),
        // A pending entry has no id at mBank: Actual imports it without one.
        ...truth.pending.map((t) => ({
          id: null,
          amount: Number(t.amount),
          date: warsawDay(t.date),
          cleared: false,
          payee: t.merchant,
        })),
      ].sort((a, b) => `${a.date}${a.amount}`.localeCompare(`${b.date}${b.amount}`));
    const imported = await rowsOf(budgetId);
    expect(view(imported.rows)).toEqual(expected());
    // mBank's starting balance is interimBooked less the booked entries: 0, the account's opening.
    expect(imported.opening.map((row) => row.amount)).toEqual([0]);
    expect(await balanceOf(budgetId)).toBe((await balancesOf(app, user, accountId)).availableBalance);

    const fuel = await simulate(app, user, { accountId, amount: -150_00, merchant: 'Orlen', description: 'ORLEN 123' });
    expect(fuel.status).toBe(201);
    await api.runBankSync({ accountId: budgetId });
    const synced = await rowsOf(budgetId);
    expect(synced.rows).toHaveLength(imported.rows.length + 1);
    const added = synced.rows.filter((row) => !imported.rows.some((old) => old.id === row.id));
    const newest = (await truthOf(app, user, accountId, MBANK)).booked[0];
    expect(added.map((row) => ({ id: row.imported_id, amount: row.amount, payee: row.payeeName }))).toEqual([
      { id: newest?.bankId, amount: -150_00, payee: 'Orlen' },
    ]);
  });
});
