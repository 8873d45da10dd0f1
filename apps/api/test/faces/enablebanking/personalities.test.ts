/**
 * The banks with personalities through the Enable Banking face (docs/faces/personalities.md): each is
 * an ASPSP of `GET /aspsps?country=PL`, decided by the owner like `Sandbank`, and its transactions carry
 * the bank's quirks that Enable Banking's shape has room for. Actual Budget's Enable Banking provider
 * (one normaliser for every ASPSP, from @actual-app/sync-server) must read them as the native API's truth.
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

const { register, eb, auth, redirected, decide } = enablebankingCalls(() => app);

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
  });
});
