/**
 * Actual Budget's own bank sync against Sandbank: its sync server (@actual-app/sync-server 26.9.0,
 * unchanged, started as its npm package runs it; scripts/ensure-actual-sync-server.sh installs it)
 * is configured with an Enable Banking application registered in Sandbank and with a Sandbank API key
 * as GoCardless's secret id and key, links an account through each integration with its own HTTP
 * endpoints (app-enablebanking, app-gocardless; the consent done as the bank's user would, unattended),
 * and syncs. What Actual answers must be Sandbank's truth: amounts, dates, payees, notes, balances —
 * through GoCardless also for mBank, whose own normaliser Actual applies.
 *
 * Actual's clients call https://api.enablebanking.com and https://bankaccountdata.gocardless.com; the
 * calls reach this test's Sandbank through a hosts file in the server's own mount namespace and a TLS
 * proxy (actual-sync-server.ts, docs/faces/enablebanking.md "Actual Budget's own integration").
 */
import { minorToDecimal } from '@sandbank/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONALITIES, type Personality } from '../../src/faces/personalities.ts';
import { gocardlessCalls, SANDBOX } from '../gocardless-calls.ts';
import { type Loose, startTestApp, type TestApp, type TestUser } from '../helpers.ts';
import {
  type ActualServer,
  balancesOf,
  ensureActualSyncServer,
  seedWithinToday,
  startActualSyncServer,
  utcDay,
} from './actual-sync-server.ts';
import { enablebankingCalls } from './enablebanking/calls.ts';
import { seedAccount, truthOf, warsawDay } from './personalities-helpers.ts';

let app: TestApp;
let actual: ActualServer;
beforeAll(async () => {
  const installed = ensureActualSyncServer();
  app = await startTestApp();
  actual = await startActualSyncServer(installed, app.url);
}, 900_000);
afterAll(async () => {
  await actual?.stop();
  await app?.close();
});

const { register } = enablebankingCalls(() => app);
const { secrets, decide } = gocardlessCalls(() => app);

/** Actual's `{ status: 'ok', data }` envelope, the data typed loosely. */
type Answer = { status: string; data: Loose };
const sandbankAccount = (user: TestUser, accountId: string) => balancesOf(app, user, accountId);

describe("Actual Budget's Enable Banking integration", () => {
  it('links a Sandbank account through Actual and syncs what Sandbank holds', async () => {
    const user = await app.createUser();
    const { accountId } = await seedWithinToday(app, user);

    // The application Actual's user registers (its redirect is Actual's own callback) and Actual's setup.
    const redirectUrl = `${actual.url}/enablebanking/auth_callback`;
    const application = await register(user, [redirectUrl]);
    const configured = await actual.call<Answer>('/enablebanking/configure', {
      applicationId: application.id,
      secretKey: application.privateKey,
    });
    expect(configured.data).toEqual({ configured: true });
    expect((await actual.call<Answer>('/enablebanking/status')).data).toEqual({ configured: true });

    const aspsps = await actual.call<Answer>('/enablebanking/aspsps', { country: 'PL' });
    const sandbox = (aspsps.data.aspsps as Loose[]).find((aspsp) => aspsp.name === 'Sandbank Sandbox');
    expect(sandbox).toMatchObject({ country: 'PL' });

    // Sandbank Sandbox approves at once: Actual's consent URL is its own callback with the code, which
    // the user's browser opens; Actual creates the session there and hands it to the poll.
    const started = await actual.call<Answer>('/enablebanking/start-auth', {
      aspsp: { name: sandbox?.name, country: 'PL' },
      redirectUrl,
    });
    const consent = new URL(String(started.data.url));
    expect(`${consent.origin}${consent.pathname}`).toBe(redirectUrl);
    expect(consent.searchParams.get('state')).toBe(started.data.state);
    const landing = await fetch(consent);
    expect(landing.status, await landing.clone().text()).toBe(200);
    expect(await landing.text()).toContain('Authorization successful');

    const polled = await actual.call<Answer>('/enablebanking/poll-auth', { state: started.data.state });
    const account = await sandbankAccount(user, accountId);
    expect(polled.data.accounts).toHaveLength(1);
    const linked = polled.data.accounts[0] as Loose;
    expect(linked).toMatchObject({ institution: 'Sandbank Sandbox', currency: 'PLN', balance: account.availableBalance });

    const synced = await actual.call<Answer>('/enablebanking/transactions', {
      accountId: linked.account_id,
      startDate: utcDay(-30),
    });
    expect(synced.data.error_code, JSON.stringify(synced.data)).toBeUndefined();
    const { transactions, balances, startingBalance } = synced.data;

    // The truth: Sandbank's own API. Actual asks up to its UTC day (`date_to`), so a booking of a later
    // Warsaw day (from midnight in Warsaw to midnight UTC) is not asked for.
    const all = (await app.call('GET', `/v1/accounts/${accountId}/transactions`, { token: user.accessToken })).body
      .data as Loose[];
    const booked = all.filter((t) => t.status === 'posted' && warsawDay(t.postedAt) <= utcDay());
    const pending = all.filter((t) => t.status === 'pending' && warsawDay(t.date) <= utcDay());
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    const seen = (list: Loose[]) =>
      list
        .map((t) => ({
          id: t.transactionId,
          amount: t.transactionAmount.amount,
          currency: t.transactionAmount.currency,
          date: t.date,
          payee: t.payeeName,
          notes: t.notes,
          booked: t.booked,
        }))
        .sort(byId);
    const expected = (list: Loose[], isBooked: boolean) =>
      list
        .map((t) => ({
          id: t.id,
          amount: minorToDecimal(Number(t.amount), 'PLN'),
          currency: 'PLN',
          date: warsawDay(isBooked ? t.postedAt : t.date),
          payee: t.merchant,
          notes: t.description,
          booked: isBooked,
        }))
        .sort(byId);
    // The salary is always asked for; from midnight in Warsaw to midnight UTC, today's bookings are not.
    expect(booked.length).toBe(warsawDay(new Date()) === utcDay() ? 3 : 1);
    expect(seen(transactions.booked)).toEqual(expected(booked, true));
    expect(seen(transactions.pending)).toEqual(expected(pending, false));
    expect(transactions.all).toHaveLength(booked.length + pending.length);

    const now = await sandbankAccount(user, accountId);
    const balance = (type: string) => (balances as Loose[]).find((b) => b.balanceType === type)?.balanceAmount.amount;
    expect({ CLBD: balance('CLBD'), CLAV: balance('CLAV'), ITAV: balance('ITAV') }).toEqual({
      CLBD: now.balance,
      CLAV: now.availableBalance,
      ITAV: now.availableBalance,
    });
    expect(startingBalance).toBe(now.availableBalance);

    // Every call went to Sandbank's face through the redirect, and Sandbank answered each.
    const paths = actual.proxied.filter((p) => p.host === 'api.enablebanking.com');
    expect(paths.map((p) => `${p.method} ${p.path.split('?')[0]?.replace(/[0-9a-f-]{36}/g, ':id')}`)).toEqual(
      expect.arrayContaining([
        'GET /application',
        'GET /aspsps',
        'POST /auth',
        'POST /sessions',
        'GET /accounts/:id/balances',
        'GET /accounts/:id/transactions',
      ]),
    );
    expect(paths.filter((p) => p.status !== 200)).toEqual([]);
  });
});

const MBANK = PERSONALITIES.find((p) => p.gocardless.id === 'MBANK_RETAIL_BREXPLPW');
if (!MBANK) throw new Error('mBank is not among the personalities');

describe("Actual Budget's GoCardless integration", () => {
  it("is configured with a Sandbank API key through Actual's secrets endpoint", async () => {
    const user = await app.createUser();
    const { secretId, secretKey } = await secrets(user);
    await actual.call('/secret', { name: 'gocardless_secretId', value: secretId });
    await actual.call('/secret', { name: 'gocardless_secretKey', value: secretKey });
    expect((await actual.call<Answer>('/gocardless/status')).data).toEqual({ configured: true });
    const banks = await actual.call<Answer>('/gocardless/get-banks', { country: 'PL' });
    const ids = (banks.data as unknown as Loose[]).map((bank) => bank.id);
    expect(ids).toEqual(expect.arrayContaining([SANDBOX, MBANK.gocardless.id]));
  });

  /** The sandbox institution (Actual's `sandboxfinance_sfin0000` normaliser) and mBank (its own). */
  const institutions: [string, Personality | undefined][] = [
    [SANDBOX, undefined],
    [MBANK.gocardless.id, MBANK],
  ];
  it.each(institutions)('links and syncs an account at %s', async (institutionId, personality) => {
    const user = await app.createUser();
    const { secretId, secretKey } = await secrets(user);
    await actual.call('/secret', { name: 'gocardless_secretId', value: secretId });
    await actual.call('/secret', { name: 'gocardless_secretKey', value: secretKey });
    const accountId = await seedAccount(app, user);

    // Actual's web app asks for a link with its own origin; the redirect comes back to its /gocardless/link.
    const token = await actual.call<Answer>('/gocardless/create-web-token', { institutionId }, { origin: actual.url });
    const { link, requisitionId } = token.data as { link: string; requisitionId: string };
    expect(link).toContain(`/console/gocardless/requisitions/${requisitionId}`);
    if (personality) {
      // The bank's user approves on Sandbank's consent page (the owner's decision it sends).
      const decided = await decide(user, requisitionId, { approve: true, accountIds: [accountId] });
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      const back = new URL(String(decided.body.data.redirect));
      expect(`${back.origin}${back.pathname}`).toBe(`${actual.url}/gocardless/link`);
      expect((await fetch(back)).status).toBe(200);
    }

    const requisition = await actual.call<Answer>('/gocardless/get-accounts', { requisitionId });
    expect(requisition.data).toMatchObject({ id: requisitionId, status: 'LN', institution_id: institutionId });
    const accounts = requisition.data.accounts as Loose[];
    expect(accounts).toHaveLength(1);
    const linked = accounts[0] as Loose;
    expect(linked).toMatchObject({ institution: { id: institutionId }, type: 'checking' });
    expect(linked.name).toContain('PLN');

    const synced = await actual.call<Answer>('/gocardless/transactions', {
      requisitionId,
      accountId: linked.account_id,
      startDate: utcDay(-30),
    });
    expect(synced.data.error_code, JSON.stringify(synced.data)).toBeUndefined();
    const { transactions, balances, startingBalance } = synced.data;

    const truth = await truthOf(app, user, accountId, personality ?? ({ quirks: {} } as Personality));
    const readsValueDate = personality !== undefined; // mBank's normaliser dates an entry by valueDate
    expect(
      (transactions.booked as Loose[]).map((t) => ({
        id: t.transactionId,
        amount: t.transactionAmount.amount,
        date: t.date,
        payee: t.payeeName,
        notes: t.notes,
      })),
    ).toEqual(
      truth.booked.map((t) => ({
        id: t.bankId,
        amount: minorToDecimal(Number(t.amount), 'PLN'),
        date: warsawDay(readsValueDate ? t.date : t.postedAt),
        payee: t.merchant,
        notes: t.description,
      })),
    );
    expect(
      (transactions.pending as Loose[]).map((t) => ({ amount: t.transactionAmount.amount, date: t.date, payee: t.payeeName })),
    ).toEqual(
      truth.pending.map((t) => ({ amount: minorToDecimal(Number(t.amount), 'PLN'), date: warsawDay(t.date), payee: t.merchant })),
    );

    const now = await sandbankAccount(user, accountId);
    const balance = (type: string) => (balances as Loose[]).find((b) => b.balanceType === type)?.balanceAmount.amount;
    expect({ interimBooked: balance('interimBooked'), interimAvailable: balance('interimAvailable') }).toEqual({
      interimBooked: minorToDecimal(now.balance, 'PLN'),
      interimAvailable: minorToDecimal(now.availableBalance, 'PLN'),
    });
    // mBank's normaliser: interimBooked less every booked entry — the account held 0 before them.
    // The sandbox's: interimAvailable less every booked entry.
    const bookedTotal = truth.booked.reduce((sum, t) => sum + Number(t.amount), 0);
    expect(startingBalance).toBe(personality ? 0 : now.availableBalance - bookedTotal);

    const calls = actual.proxied.filter((p) => p.host === 'bankaccountdata.gocardless.com');
    expect(calls.every((p) => p.path.startsWith('/api/v2/'))).toBe(true);
    expect(calls.filter((p) => p.status >= 300)).toEqual([]);
  });
});
