/**
 * The GoCardless consent page in headless Chromium against the real API: an app (the face, called
 * as nordigen-node calls it) creates requisitions at a bank that waits for consent; the owner opens
 * the requisition's link, signs in inside the bank's page (no console around it), sees the bank's
 * name, what is asked in words and where they go next (GC), goes on to pick one of two accounts
 * (SA) and approves (LN, redirected with `ref`), then declines another at the first step (RJ,
 * redirected too); the console's list of requisitions shows both. On a phone (390 px) the page
 * fits and each account is on its own line.
 */
import { openAccount } from '@sandbank/testing/fixtures';
import { expect, it } from 'vitest';
import { callGoCardless } from './api.ts';
import { checkPage, documentWidth, expectOnePerLine, openPage, textOf } from './browser.ts';
import { submitSignIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack();

const face = <T>(path: string, body?: unknown, access?: string) => callGoCardless<T>(stack.url, path, body, access);

it('approves with the accounts picked and declines, redirecting to the app with ref', async () => {
  const user = await stack.app.createUser();
  const everyday = await openAccount(stack.app, user, 'Everyday');
  await openAccount(stack.app, user, 'Savings');
  const key = (await stack.app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'Budget app' } })).body.data;
  const { access } = await face<{ access: string }>('/token/new/', { secret_id: key.id, secret_key: key.key });
  const ask = (reference: string) =>
    face<{ id: string; status: string; link: string }>(
      '/requisitions/',
      { redirect: `${stack.url}/healthz`, institution_id: 'SANDBANK_DATY_SNDBPLP1', reference },
      access,
    );
  const first = await ask('approve-me');
  expect(first.status).toBe('CR');

  const watched = await openPage(stack.browser, stack.url);
  const { page } = watched;
  // The app sends the owner to the link; signing in returns there.
  await page.goto(stack.url + new URL(first.link).pathname);
  await page.getByRole('heading', { name: 'Sign in to your bank' }).waitFor();
  await submitSignIn(page, user.email, user.password);
  await page.getByRole('heading', { name: 'Connect your accounts' }).waitFor();
  // The bank's page, not the console: the institution's name, no console navigation, steps in words.
  expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
  expect(await page.locator('.bank-name').textContent()).toBe('Bank Przestawionych Dat');
  const request = await textOf(page, 'consent-request');
  // The app by the name of the API key whose secret_id made the requisition.
  expect(request).toContain('Budget app (via GoCardless Bank Account Data) asks to see');
  expect(request).toContain('your transactions for the last 90 days');
  expect(request).toContain('your balances');
  expect(request).toContain('Access lasts 90 days from your approval.');
  expect(request).not.toMatch(/\b(GC|SA|CR)\b/);
  expect(await textOf(page, 'consent-next')).toBe(new URL(stack.url).host);
  expect(await page.getByRole('list', { name: 'Steps' }).locator('[aria-current="step"]').textContent()).toBe(
    'Review the request',
  );
  await checkPage(watched, 'gocardless-consent');
  const statusOf = async (id: string) => (await face<{ status: string }>(`/requisitions/${id}/`, undefined, access)).status;
  await expect.poll(() => statusOf(first.id)).toBe('GC');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('checkbox', { name: /Savings/ }).waitFor();
  expect(await statusOf(first.id)).toBe('SA');
  expect(await page.getByRole('list', { name: 'Steps' }).locator('[aria-current="step"]').textContent()).toBe('Choose accounts');
  await page.getByRole('checkbox', { name: /Savings/ }).uncheck();
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.waitForURL(/\/healthz\?ref=approve-me$/);
  const linked = await face<{ status: string; accounts: string[] }>(`/requisitions/${first.id}/`, undefined, access);
  expect(linked.status).toBe('LN');
  expect(linked.accounts).toHaveLength(1);
  const details = await face<{ account: { resourceId: string } }>(`/accounts/${linked.accounts[0]}/details/`, undefined, access);
  expect(details.account.resourceId).toBe(everyday);

  // The console's session outlived the trip to the app (its cookie): the next link opens at once.
  const second = await ask('refuse-me');
  await page.goto(stack.url + new URL(second.link).pathname);
  await expect.poll(() => statusOf(second.id)).toBe('GC');
  await page.getByRole('button', { name: 'Decline' }).click();
  expect(await page.getByLabel('E-mail').count()).toBe(0);
  await page.waitForURL(/\/healthz\?ref=refuse-me$/);
  expect(await statusOf(second.id)).toBe('RJ');

  // The world's requisitions, newest first, as the console lists them (still signed in: the cookie).
  await page.goto(`${stack.url}/console/gocardless/requisitions`);
  await page.getByRole('heading', { name: 'GoCardless requisitions' }).waitFor();
  const rows = page.getByTestId('requisitions').locator('tbody tr');
  await expect.poll(() => rows.count()).toBe(2);
  const cells = (row: number) => rows.nth(row).locator('td').allTextContents();
  // Bank, reference, status, accounts linked.
  expect((await cells(0)).slice(0, 4)).toEqual(['SANDBANK_DATY_SNDBPLP1', 'refuse-me', 'RJ refused', '0']);
  expect((await cells(1)).slice(0, 4)).toEqual(['SANDBANK_DATY_SNDBPLP1', 'approve-me', 'LN linked', '1']);
  await checkPage(watched, 'gocardless-requisitions');
});

it('fits a phone: one account a line, nothing scrolls sideways', async () => {
  const user = await stack.app.createUser();
  await openAccount(stack.app, user, 'Everyday account with a rather long name');
  await openAccount(stack.app, user, 'Savings');
  await openAccount(stack.app, user, 'Holiday fund');
  const key = (await stack.app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'app' } })).body.data;
  const { access } = await face<{ access: string }>('/token/new/', { secret_id: key.id, secret_key: key.key });
  const asked = await face<{ id: string; link: string }>(
    '/requisitions/',
    { redirect: `${stack.url}/healthz`, institution_id: 'SANDBANK_TYTUL_SNDBPLP3', reference: 'phone' },
    access,
  );
  const watched = await openPage(stack.browser, stack.url, { viewport: { width: 390, height: 844 } });
  const { page } = watched;
  await page.goto(stack.url + new URL(asked.link).pathname);
  await page.getByRole('heading', { name: 'Sign in to your bank' }).waitFor();
  expect(await documentWidth(page)).toBe(390);
  await submitSignIn(page, user.email, user.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectOnePerLine(page, 3);
  expect(await documentWidth(page)).toBe(390);
  await checkPage(watched, 'phone-gocardless-consent');
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.waitForURL(/\/healthz\?ref=phone$/);
  await page.context().close();
});
