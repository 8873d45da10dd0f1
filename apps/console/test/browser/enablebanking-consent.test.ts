/**
 * The Enable Banking consent page in headless Chromium against the real API: an application
 * registered by the owner (the owner API) starts `POST /auth` at the `Sandbank` ASPSP (the owner
 * decides) with its RS256 JWT signed as Enable Banking documents it (the face tests' helper); the
 * owner opens `url`, signs in inside the bank's page, sees the app, what it asks for and where they
 * go next, approves two of three accounts and lands on `redirect_url` with `code` and `state`;
 * `POST /sessions` answers exactly those two. On a phone (390 px) the page fits, each account is on
 * its own line, and declining lands on `redirect_url` with `error=access_denied`. A payment (`POST
 * /payments`) shows its amount, creditor, IBAN and remittance, pays from the account chosen (the app then
 * reads ACTC from that account), fits a phone, and Cancel lands with `access_denied` (the app reads CNCL).
 */
import { enablebankingCalls } from '@sandbank/api/test-enablebanking';
import { ibanOf } from '@sandbank/core';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
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

/** `POST /payments` at the `Sandbank` ASPSP: 123.45 PLN to a creditor, as an app sends it. */
const payment = (application: Awaited<ReturnType<typeof register>>, state: string) =>
  eb(application, 'POST', '/payments', {
    payment_type: 'DOMESTIC',
    payment_request: {
      credit_transfer_transaction: [
        {
          instructed_amount: { currency: 'PLN', amount: '123.45' },
          beneficiary: {
            creditor: { name: 'Spółdzielnia Mieszkaniowa' },
            creditor_account: { identification: 'PL61109010140000071219812874', scheme_name: 'IBAN' },
          },
          remittance_information: ['Czynsz grudzień'],
        },
      ],
    },
    aspsp: { name: 'Sandbank', country: 'PL' },
    state,
    redirect_url: application.redirectUrls[0],
    psu_type: 'personal',
  });

it('shows a payment like a bank does, pays it from the account chosen, and the app sees it executing', async () => {
  const user = await stack.app.createUser();
  const everyday = await openAccount(stack.app, user, 'Everyday');
  const savings = await openAccount(stack.app, user, 'Savings');
  for (const accountId of [everyday, savings]) {
    expect((await simulate(stack.app, user, { accountId, amount: 1_000_00 })).status).toBe(201);
  }
  const back = `${stack.url}/healthz`;
  const application = await register(user, [back]);
  const created = await payment(application, 'state-pay');
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  expect(created.body.status).toBe('PDNG');
  const consentUrl = new URL(created.body.url);
  expect(consentUrl.pathname).toBe(`/console/enablebanking/payments/${created.body.payment_id}`);

  const watched = await openPage(stack.browser, stack.url);
  const { page } = watched;
  await page.goto(stack.url + consentUrl.pathname);
  await submitSignIn(page, user.email, user.password);
  await page.getByRole('heading', { name: 'Confirm a payment' }).waitFor();
  expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
  expect(await textOf(page, 'payment-request')).toContain('Budget app asks you to pay');
  expect(await textOf(page, 'payment-amount')).toMatch(/123[.,]45/);
  expect(await textOf(page, 'payment-amount')).toMatch(/PLN|zł/);
  expect(await textOf(page, 'payment-creditor')).toBe('Spółdzielnia Mieszkaniowa');
  expect(await textOf(page, 'payment-iban')).toBe('PL61 1090 1014 0000 0712 1981 2874');
  expect(await textOf(page, 'payment-remittance')).toBe('Czynsz grudzień');
  expect(await textOf(page, 'consent-next')).toBe(new URL(back).host);
  await expectOnePerLine(page, 2, 'radio');
  await checkPage(watched, 'eb-payment-consent');

  await page.getByRole('radio', { name: /Savings/ }).check();
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/healthz\?/);
  const landed = new URL(page.url());
  expect(landed.searchParams.get('state')).toBe('state-pay');
  expect(landed.searchParams.get('error')).toBeNull();

  const status = await eb(application, 'GET', `/payments/${created.body.payment_id}`);
  expect(status.body).toMatchObject({ status: 'ACTC', final_status: false });
  expect(status.body.payment_details.debtor_account.identification).toBe(ibanOf(savings));
  await page.context().close();
});

it('fits a phone for a payment, and Cancel sends the user back with access_denied', async () => {
  const user = await stack.app.createUser();
  const main = await openAccount(stack.app, user, 'Everyday account with a rather long name');
  expect((await simulate(stack.app, user, { accountId: main, amount: 500_00 })).status).toBe(201);
  const back = `${stack.url}/healthz`;
  const application = await register(user, [back]);
  const created = await payment(application, 'state-cancel');
  expect(created.status, JSON.stringify(created.body)).toBe(200);

  const watched = await openPage(stack.browser, stack.url, { viewport: { width: 390, height: 844 } });
  const { page } = watched;
  await page.goto(stack.url + new URL(created.body.url).pathname);
  await submitSignIn(page, user.email, user.password);
  await page.getByRole('heading', { name: 'Confirm a payment' }).waitFor();
  await expectOnePerLine(page, 1, 'radio');
  expect(await documentWidth(page)).toBe(390);
  await checkPage(watched, 'phone-eb-payment-consent');

  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForURL(/\/healthz\?/);
  const landed = new URL(page.url());
  expect(landed.searchParams.get('error')).toBe('access_denied');
  expect(landed.searchParams.get('state')).toBe('state-cancel');
  expect((await eb(application, 'GET', `/payments/${created.body.payment_id}`)).body).toMatchObject({ status: 'CNCL' });
  await page.goto(stack.url + new URL(created.body.url).pathname);
  await page.getByRole('heading', { name: 'Nothing to decide' }).waitFor();
  await page.context().close();
});
