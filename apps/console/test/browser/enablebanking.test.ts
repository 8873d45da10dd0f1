/**
 * The Enable Banking page in headless Chromium against the real API: empty, it explains how an app
 * starts; an application (registered through the owner API, calling the face with its own RS256 JWTs)
 * makes a session at `Sandbank Sandbox` and two payments — one linked at once (executed as an Elixir
 * payment, ACTC) and one waiting for the owner (PDNG). The page lists, per application, the session's
 * status, accounts and validity, and each payment's Enable Banking status beside the section-19 payment
 * it runs as, its amount and creditor. Moving the world's clock past the consent shows EXPIRED; Revoke
 * (asked first) closes the session, and the app's own read then fails. Desk and phone, light and dark, axe clean.
 */
import { expect, it } from 'vitest';
import { callApi, callEnableBanking, enableBankingPayment, enableBankingSession, registerUser } from './api.ts';
import { checkOnPhone, checkPage, money, openPage, textOf } from './browser.ts';
import { confirm, signIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack({ worker: false });

it('lists an application’s sessions and payments, shows expiry on the world’s clock, and revokes a session', async () => {
  const email = `eb-${Date.now()}@example.com`;
  const { accessToken: token } = await registerUser(stack.url, email);
  const account = await callApi<{ id: string }>(stack.url, 'POST', '/v1/accounts', token, { name: 'Konto osobiste' });
  await callApi(stack.url, 'POST', '/v1/simulations/transaction', token, { accountId: account.id, amount: 500_00 });

  const watched = await openPage(stack.browser, stack.url, { viewport: { width: 1280, height: 900 } });
  const { page } = watched;
  await signIn(page, stack.url, email);
  await page.getByRole('link', { name: 'Enable Banking' }).click();
  await page.getByRole('heading', { name: 'Enable Banking', level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/console/enablebanking');
  expect(await textOf(page, 'eb-empty')).toContain('POST /v1/enablebanking/applications');
  await checkPage(watched, 'enablebanking-empty');

  const { application, sessionId } = await enableBankingSession(stack.url, token, 'Budżet domowy');
  const executed = await enableBankingPayment(stack.url, application, {
    amount: '123.45',
    creditor: 'Spółdzielnia Mieszkaniowa',
    aspsp: 'Sandbank Sandbox',
  });
  expect(executed.status).toBe('ACTC');
  const waiting = await enableBankingPayment(stack.url, application, { amount: '7.00', creditor: 'Kiosk', aspsp: 'Sandbank' });
  expect(waiting.status).toBe('PDNG');

  await page.reload();
  const sessions = page.getByRole('table', { name: 'Sessions of Budżet domowy' });
  await expect.poll(() => sessions.locator('tbody tr').count()).toBe(1);
  const session = sessions.locator('tbody tr').first();
  const sessionCells = async () => session.locator('td').allTextContents();
  expect((await sessionCells())[0]).toContain('Sandbank Sandbox (PL)');
  expect((await sessionCells())[1]).toBe('AUTHORIZED');
  expect((await sessionCells())[2]).toBe('Konto osobiste PLN');

  const payments = page.getByRole('table', { name: 'Payments of Budżet domowy' });
  await expect.poll(() => payments.locator('tbody tr').count()).toBe(2);
  const paid = payments.getByRole('row', { name: /Spółdzielnia/ });
  const paidCells = await paid.locator('td').allTextContents();
  expect(paidCells[0]).toBe('ACTCDOMESTIC');
  expect(paidCells[1]).toMatch(/^ACTC elixir/);
  expect(paidCells[2]).toBe(money(123_45));
  expect(paidCells[3]).toBe('Spółdzielnia MieszkaniowaPL61 1090 1014 0000 0712 1981 2874');
  const pendingCells = await payments.getByRole('row', { name: /Kiosk/ }).locator('td').allTextContents();
  expect(pendingCells.slice(0, 3)).toEqual(['PDNGDOMESTIC', 'waiting for your decision', money(7_00)]);
  await checkPage(watched, 'enablebanking');
  await checkOnPhone(stack, email, [
    {
      path: '/enablebanking',
      name: 'enablebanking',
      ready: (phone) => phone.getByRole('table', { name: 'Payments of Budżet domowy' }).waitFor(),
    },
  ]);

  // The consent lasts 30 days of the world's clock: 31 days on, the session is EXPIRED.
  await callApi(stack.url, 'POST', '/v1/clock/advance', token, { by: 'P31D' });
  await page.reload();
  await expect.poll(async () => (await sessionCells())[1]).toBe('EXPIRED');

  // Revoke, asked first: Cancel changes nothing; confirmed, the session is CLOSED and the app's read fails.
  const uid = (await callEnableBanking<{ accounts: string[] }>(stack.url, application, 'GET', `/sessions/${sessionId}`))
    .accounts[0];
  await session.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  expect((await callEnableBanking<{ status: string }>(stack.url, application, 'GET', `/sessions/${sessionId}`)).status).toBe(
    'EXPIRED',
  );
  await confirm(page, session, 'Revoke');
  await expect.poll(async () => (await sessionCells())[1]).toMatch(/^CLOSEDsince /);
  expect(await session.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
  expect((await callEnableBanking<{ status: string }>(stack.url, application, 'GET', `/sessions/${sessionId}`)).status).toBe(
    'CLOSED',
  );
  await expect(callEnableBanking(stack.url, application, 'GET', `/accounts/${uid}/balances`)).rejects.toThrow(/balances: 4\d\d/);
  await page.context().close();
});
