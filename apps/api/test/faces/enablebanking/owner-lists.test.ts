/**
 * What the console's Enable Banking page reads and does, over the owner API (docs/faces/enablebanking.md):
 * an application's sessions with their status on the world's clock and their accounts, its payments
 * with Enable Banking's status beside the section-19 payment each runs as, and the owner revoking a
 * session — closed at the world's now, so the app's own reads then answer CLOSED_SESSION. A closed
 * session is 409; another user's application or session is 404 (security-coverage.test.ts runs that
 * for every path too).
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers.ts';
import { enablebankingCalls } from './calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { register, eb, sandboxSession, advance } = enablebankingCalls(() => app);

it('lists sessions and payments per application, and revokes a session the app then finds closed', async () => {
  const user = await app.createUser();
  const accountId = await openAccount(app, user, 'Konto osobiste');
  expect((await simulate(app, user, { accountId, amount: 500_00 })).status).toBe(201);
  const application = await register(user);
  const session = await sandboxSession(application, 30);
  const paid = await eb(application, 'POST', '/payments', {
    payment_type: 'DOMESTIC',
    payment_request: {
      credit_transfer_transaction: [
        {
          instructed_amount: { currency: 'PLN', amount: '12.34' },
          beneficiary: {
            creditor: { name: 'Spółdzielnia' },
            creditor_account: { identification: 'PL61109010140000071219812874', scheme_name: 'IBAN' },
          },
        },
      ],
    },
    aspsp: { name: 'Sandbank Sandbox', country: 'PL' },
    state: 'owner-lists',
    redirect_url: application.redirectUrls[0],
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  const owner = (method: string, path: string) => app.call(method, path, { token: user.accessToken });

  const sessions = await owner('GET', `/v1/enablebanking/applications/${application.id}/sessions`);
  expect([sessions.status, sessions.body.meta.total]).toEqual([200, 1]);
  expect(sessions.body.data[0]).toMatchObject({
    id: session.session_id,
    status: 'AUTHORIZED',
    aspsp: { name: 'Sandbank Sandbox', country: 'PL' },
    accounts: [{ uid: session.accounts[0].uid, accountId, name: 'Konto osobiste', currency: 'PLN' }],
    closedAt: null,
  });
  const payments = await owner('GET', `/v1/enablebanking/applications/${application.id}/payments`);
  expect(payments.body.data).toMatchObject([
    {
      id: paid.body.payment_id,
      status: 'authorised',
      ebStatus: 'ACTC',
      amount: 12_34,
      currency: 'PLN',
      creditor: { name: 'Spółdzielnia', iban: 'PL61109010140000071219812874' },
      payment: { status: 'ACTC', scheme: 'elixir', fromAccountId: accountId, amount: 12_34 },
    },
  ]);

  // The world's clock past the consent: EXPIRED, on the list as on the face.
  await advance(user, 'P31D');
  const expired = await owner('GET', `/v1/enablebanking/applications/${application.id}/sessions`);
  expect(expired.body.data[0].status).toBe('EXPIRED');
  expect((await eb(application, 'GET', `/sessions/${session.session_id}`)).body.status).toBe('EXPIRED');

  const revoked = await owner('DELETE', `/v1/enablebanking/sessions/${session.session_id}`);
  expect([revoked.status, revoked.body.data.status]).toEqual([200, 'CLOSED']);
  expect((await eb(application, 'GET', `/sessions/${session.session_id}`)).body).toMatchObject({ status: 'CLOSED' });
  const read = await eb(application, 'GET', `/accounts/${session.accounts[0].uid}/balances`);
  expect([read.status, read.body.error]).toEqual([422, 'CLOSED_SESSION']);
  const again = await owner('DELETE', `/v1/enablebanking/sessions/${session.session_id}`);
  expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);

  // Another user sees neither the application's lists nor the session.
  const stranger = await app.createUser();
  const theirs = (path: string, method = 'GET') => app.call(method, path, { token: stranger.accessToken });
  expect((await theirs(`/v1/enablebanking/applications/${application.id}/sessions`)).status).toBe(404);
  expect((await theirs(`/v1/enablebanking/applications/${application.id}/payments`)).status).toBe(404);
  expect((await theirs(`/v1/enablebanking/sessions/${session.session_id}`, 'DELETE')).status).toBe(404);
});
