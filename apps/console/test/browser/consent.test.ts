/**
 * The GoCardless consent page in headless Chromium against the real API: an app (the face, called
 * as nordigen-node calls it) creates requisitions at a bank that waits for consent; the owner opens
 * the requisition's link, signs in, sees what is asked (GC), goes on to pick one of two accounts
 * (SA) and approves (LN, redirected with `ref`), then refuses another at the first step (RJ,
 * redirected too); the console's list of requisitions shows both.
 */
import { openAccount } from '@sandbank/testing/fixtures';
import { expect, it } from 'vitest';
import { callGoCardless } from './api.ts';
import { checkPage, openPage, textOf } from './browser.ts';
import { submitSignIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack();

const face = <T>(path: string, body?: unknown, access?: string) => callGoCardless<T>(stack.url, path, body, access);

it('approves with the accounts picked and refuses, redirecting to the app with ref', async () => {
  const user = await stack.app.createUser();
  const everyday = await openAccount(stack.app, user, 'Everyday');
  await openAccount(stack.app, user, 'Savings');
  const key = (await stack.app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'app' } })).body.data;
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
  await submitSignIn(page, user.email, user.password);
  await page.getByRole('heading', { name: 'Connect your accounts' }).waitFor();
  expect(await textOf(page, 'consent-request')).toContain('SANDBANK_DATY_SNDBPLP1');
  expect(await textOf(page, 'consent-request')).toContain('90 days back');
  await checkPage(watched, 'gocardless-consent');
  const statusOf = async (id: string) => (await face<{ status: string }>(`/requisitions/${id}/`, undefined, access)).status;
  await expect.poll(() => statusOf(first.id)).toBe('GC');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('checkbox', { name: /Savings/ }).waitFor();
  expect(await statusOf(first.id)).toBe('SA');
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
  await page.getByRole('button', { name: 'Refuse' }).click();
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
