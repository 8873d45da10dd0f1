/**
 * The banks with personalities through the Enable Banking face (docs/faces/personalities.md): each is
 * an ASPSP of `GET /aspsps?country=PL`, decided by the owner like `Sandbank`, and its transactions carry
 * the bank's quirks that Enable Banking's shape has room for (pending entries without ids included).
 * Actual Budget's Enable Banking provider (one normaliser for every ASPSP, from @actual-app/sync-server)
 * must read them as the native API's truth. A bank with PSD2's daily limit refuses the fifth unattended
 * read of a day with 429 ASPSP_RATE_LIMIT_EXCEEDED; a read with Psu-Ip-Address, another scope, a
 * continued page and a bank without the limit are not refused. Every answer is checked against Enable
 * Banking's published document by the test server (face-answers.ts).
 */
import { minorToDecimal } from '@sandbank/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONALITIES } from '../../../src/faces/personalities.ts';
import { type Loose, startTestApp, type TestApp } from '../../helpers.ts';
import { type ActualNormalisers, loadActualNormalisers, seedAccount, truthOf, warsawDay } from '../personalities-helpers.ts';
import { enablebankingCalls } from './calls.ts';

let app: TestApp;
let actual: ActualNormalisers;
beforeAll(async () => {
  actual = await loadActualNormalisers();
  app = await startTestApp();
}, 900_000);
afterAll(() => app?.close());

const { register, eb, jwt, auth, redirected, decide } = enablebankingCalls(() => app);

it('lists every bank with a personality among the Polish ASPSPs, after Sandbank’s own', async () => {
  const user = await app.createUser();
  const listed = await eb(await register(user), 'GET', '/aspsps?country=PL');
  expect(listed.body.aspsps.map((a: Loose) => a.name)).toEqual([
    'Sandbank Sandbox',
    'Sandbank',
    ...PERSONALITIES.map((p) => p.enablebanking.name),
  ]);
});

describe.each(PERSONALITIES.map((p) => [p.enablebanking.name, p] as const))('%s', (name, personality) => {
  it("carries the bank's quirks, and Actual's Enable Banking provider reads the native API's truth", async () => {
    const user = await app.createUser();
    const accountId = await seedAccount(app, user);
    const application = await register(user);
    const started = await auth(application, name, 'personality');
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const approved = await decide(user, started.body.authorization_id, { approve: true, accountIds: [accountId] });
    const session = await eb(application, 'POST', '/sessions', { code: redirected(approved.body.data.redirect).code });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    const page = await eb(application, 'GET', `/accounts/${session.body.accounts[0].uid}/transactions`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const wire = page.body.transactions as Loose[];
    const truth = await truthOf(app, user, accountId, personality);

    // Enable Banking lists booked entries oldest first; Actual keeps the bank's id and booking day.
    const booked = wire.filter((t) => t.status === 'BOOK').map((t) => actual.normalizeEnableBankingTransaction(t));
    expect(
      booked.map((t) => ({ id: t.transactionId, amount: t.transactionAmount.amount, date: t.date, payee: t.payeeName })),
    ).toEqual(
      [...truth.booked].reverse().map((t) => ({
        id: t.bankId,
        amount: minorToDecimal(Number(t.amount), 'PLN'),
        date: warsawDay(t.postedAt),
        payee: t.merchant,
      })),
    );
    for (const t of wire.filter((t) => t.status === 'BOOK')) {
      expect('balance_after_transaction' in t).toBe(!personality.quirks.withoutBalanceAfter);
    }

    // Pending entries: no ids at a bank that gives none (Actual's transactionId is then empty), still not booked.
    const pendingWire = wire.filter((t) => t.status === 'PDNG');
    for (const t of pendingWire) {
      expect(['entry_reference' in t, 'transaction_id' in t]).toEqual([
        !personality.quirks.pendingWithoutId,
        !personality.quirks.pendingWithoutId,
      ]);
    }
    expect(
      pendingWire
        .map(
          (t) =>
            actual.normalizeEnableBankingTransaction(t) as ReturnType<ActualNormalisers['normalizeEnableBankingTransaction']> & {
              booked: boolean;
            },
        )
        .map((t) => ({ id: t.transactionId, amount: t.transactionAmount.amount, booked: t.booked })),
    ).toEqual(
      truth.pending.map((t) => ({
        id: personality.quirks.pendingWithoutId ? '' : t.id,
        amount: minorToDecimal(Number(t.amount), 'PLN'),
        booked: false,
      })),
    );
  });
});

describe('the daily limit of unattended reads', () => {
  /** A session at the ASPSP over one seeded account: the application and the account's uid. */
  async function linked(name: string) {
    const user = await app.createUser();
    const accountId = await seedAccount(app, user);
    const application = await register(user);
    const started = await auth(application, name, 'limit');
    const approved = await decide(user, started.body.authorization_id, { approve: true, accountIds: [accountId] });
    const session = await eb(application, 'POST', '/sessions', { code: redirected(approved.body.data.redirect).code });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    return { user, application, uid: session.body.accounts[0].uid as string };
  }
  const read = async (application: Awaited<ReturnType<typeof linked>>['application'], path: string, psuIp?: string) =>
    app.call('GET', `/enablebanking${path}`, {
      headers: { authorization: `Bearer ${await jwt(application)}`, ...(psuIp ? { 'psu-ip-address': psuIp } : {}) },
    });

  it('refuses the fifth read of a day at a bank with the limit, as Enable Banking passes the bank’s refusal on', async () => {
    const personality = PERSONALITIES.find((p) => p.enablebanking.name === 'PKO Bank Polski');
    const limit = personality?.quirks.dailyLimit;
    if (!limit) throw new Error('PKO Bank Polski has no daily limit');
    const { application, uid } = await linked('PKO Bank Polski');
    for (let n = 0; n < limit; n++) expect((await read(application, `/accounts/${uid}/transactions`)).status).toBe(200);
    const refused = await read(application, `/accounts/${uid}/transactions`);
    expect([refused.status, refused.body]).toEqual([
      429,
      { code: 429, message: 'ASPSP Rate limit exceeded', error: 'ASPSP_RATE_LIMIT_EXCEEDED', detail: expect.any(String) },
    ]);
    // The user present (Psu-Ip-Address) is not limited; another scope counts apart.
    expect((await read(application, `/accounts/${uid}/transactions`, '198.51.100.7')).status).toBe(200);
    expect((await read(application, `/accounts/${uid}/balances`)).status).toBe(200);
    expect((await read(application, `/accounts/${uid}/details`)).status).toBe(200);
  });

  it('counts a day of the world’s clock, and never limits a bank without the limit', async () => {
    const { user, application, uid } = await linked('PKO Bank Polski');
    for (let n = 0; n < 4; n++) await read(application, `/accounts/${uid}/balances`);
    expect((await read(application, `/accounts/${uid}/balances`)).status).toBe(429);
    // The next Warsaw day of the world's clock (a day on, the consent still valid) starts a new count.
    expect((await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { by: 'P1D' } })).status).toBe(200);
    expect((await read(application, `/accounts/${uid}/balances`)).status).toBe(200);
    const revolut = await linked('Revolut');
    for (let n = 0; n < 6; n++) expect((await read(revolut.application, `/accounts/${revolut.uid}/balances`)).status).toBe(200);
  });
});
