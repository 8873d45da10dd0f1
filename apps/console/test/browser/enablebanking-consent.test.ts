/**
 * The Enable Banking consent page in headless Chromium against the real API: an application
 * registered by the owner (the owner API) starts `POST /auth` at the `Sandbank` ASPSP (the owner
 * decides) with its RS256 JWT signed as Enable Banking documents it (the face tests' helper); the
 * owner opens `url`, signs in inside the bank's page, sees the app, what it asks for and where they
 * go next, approves two of three accounts and lands on `redirect_url` with `code` and `state`;
 * `POST /sessions` answers exactly those two. On a phone (390 px) the page fits, each account is on
 * its own line, and declining lands on `redirect_url` with `error=access_denied`.
 */
import { enablebankingCalls } from '@sandbank/api/test-enablebanking';
import { openAccount } from '@sandbank/testing/fixtures';
import { expect, it } from 'vitest';
import { checkPage, documentWidth, expectOnePerLine, openPage, textOf } from './browser.ts';
import { submitSignIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack({ worker: false });
const { register, auth, eb } = enablebankingCalls(() => stack.app);

it('approves two of three accounts in the bank’s page, and the session has exactly those', async () => {
  const user = await stack.app.createUser();
  await openAccount(stack.app, user, 'Everyday');
  await openAccount(stack.app, user, 'Savings');
  await openAccount(stack.app, user, 'Holiday fund');
  const back = `${stack.url}/healthz`;
  const application = await register(user, [back]);

  const started = await auth(application, 'Sandbank', 'state-approve', 30);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const consentUrl = new URL(started.body.url);
  expect(consentUrl.pathname).toBe(`/console/enablebanking/authorizations/${started.body.authorization_id}`);

  const watched = await openPage(stack.browser, stack.url);
  const { page } = watched;
  await page.goto(stack.url + consentUrl.pathname);
  // Sign-in is inside the bank's page: no console navigation around it.
  await submitSignIn(page, user.email, user.password);
  await page.getByRole('heading', { name: 'Connect your accounts' }).waitFor();
  expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
  const request = await textOf(page, 'consent-request');
  expect(request).toContain('Budget app asks to see');
  expect(request).toContain('your balances');
  expect(request).toContain('your transactions');
  expect(request).toMatch(/Access lasts until \d{1,2} \w+ \d{4}\./);
  expect(await textOf(page, 'consent-next')).toBe(new URL(back).host);
  expect(await page.locator('.bank-name').textContent()).toBe('Sandbank');
  await expectOnePerLine(page, 3);
  await checkPage(watched, 'eb-consent');

  await page.getByRole('checkbox', { name: /Savings/ }).uncheck();
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.waitForURL(/\/healthz\?/);
  const landed = new URL(page.url());
  expect(landed.searchParams.get('state')).toBe('state-approve');
  const code = landed.searchParams.get('code');
  expect(code).toBeTruthy();

  const session = await eb(application, 'POST', '/sessions', { code });
  expect(session.status, JSON.stringify(session.body)).toBe(200);
  const names = (session.body.accounts as { name: string }[]).map((account) => account.name).sort();
  expect(names).toEqual(['Everyday', 'Holiday fund']);
  await page.context().close();
});

it('fits a phone, one account a line, and declining sends the user back with access_denied', async () => {
  const user = await stack.app.createUser();
  await openAccount(stack.app, user, 'Everyday account with a rather long name');
  await openAccount(stack.app, user, 'Savings');
  await openAccount(stack.app, user, 'Holiday fund');
  const back = `${stack.url}/healthz`;
  const application = await register(user, [back]);
  const started = await auth(application, 'Sandbank', 'state-decline', 90);
  expect(started.status, JSON.stringify(started.body)).toBe(200);

  const watched = await openPage(stack.browser, stack.url, { viewport: { width: 390, height: 844 } });
  const { page } = watched;
  await page.goto(stack.url + new URL(started.body.url).pathname);
  await page.getByRole('heading', { name: 'Sign in to your bank' }).waitFor();
  expect(await documentWidth(page)).toBe(390);
  await checkPage(watched, 'phone-eb-sign-in');
  await submitSignIn(page, user.email, user.password);
  await page.getByRole('heading', { name: 'Connect your accounts' }).waitFor();
  await expectOnePerLine(page, 3);
  expect(await documentWidth(page)).toBe(390);
  await checkPage(watched, 'phone-eb-consent');

  await page.getByRole('button', { name: 'Decline' }).click();
  await page.waitForURL(/\/healthz\?/);
  const landed = new URL(page.url());
  expect(landed.searchParams.get('error')).toBe('access_denied');
  expect(landed.searchParams.get('state')).toBe('state-decline');
  expect(landed.searchParams.get('code')).toBeNull();
  // Once decided, the page says so.
  await page.goto(stack.url + new URL(started.body.url).pathname);
  await page.getByRole('heading', { name: 'Nothing to decide' }).waitFor();
  await page.context().close();
});
