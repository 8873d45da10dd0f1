/**
 * The Payments page (issue #42, docs/concepts/payments.md) in headless Chromium against the real API:
 * payments made through the REST API are listed and filtered; one is cancelled before its session,
 * one rejected with AC04 (the reason in its timeline), one settled by advancing the world's clock and
 * then returned; one is made with the page's own form; the clearing calendar shows the next sessions.
 * At a desk and at 390 px, light and dark: accessible, within its CSP, photographed.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { callApi, registerUser } from './api.ts';
import { checkOnPhone, checkPage, expectAccessible, openPage } from './browser.ts';
import { confirm, signIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack({ worker: false });

interface Payment {
  id: string;
  status: string;
}

const rows = (page: Page) => page.getByTestId('payment-row');
const row = (page: Page, name: string) => rows(page).filter({ has: page.getByRole('button', { name, exact: true }) });
const timeline = (page: Page) => page.getByTestId('payment-timeline');

/** Opens a payment's panel from its row and waits for it to show this payment's status. */
async function open(page: Page, name: string, status: string): Promise<void> {
  await row(page, name).getByRole('button', { name, exact: true }).click();
  await expect.poll(() => page.getByTestId('payment-status').textContent()).toContain(status);
}

it('lists and filters payments, cancels one, rejects one with AC04, returns a settled one, makes one and shows the calendar', async () => {
  const email = `payments-${Date.now()}@example.com`;
  const { accessToken: token } = await registerUser(stack.url, email);
  const call = <T>(method: string, path: string, body?: unknown) => callApi<T>(stack.url, method, path, token, body);
  const main = await call<{ id: string }>('POST', '/v1/accounts', { name: 'Main' });
  const savings = await call<{ id: string }>('POST', '/v1/accounts', { name: 'Savings' });
  const euro = await call<{ id: string }>('POST', '/v1/accounts', { name: 'Euro', currency: 'EUR' });
  await call('POST', '/v1/simulations/transaction', { accountId: main.id, amount: 1_000_000, description: 'Salary' });
  await call('POST', '/v1/simulations/transaction', { accountId: euro.id, amount: 50_000, description: 'Top-up' });
  const pay = (to: unknown, amount: number, description: string, from = main.id) =>
    call<Payment>('POST', '/v1/payments', { fromAccountId: from, to, amount, description });
  const toCancel = await pay({ iban: 'PL61109010140000071219812874', name: 'Jan Kowalski' }, 120_00, 'Rent');
  const toReject = await pay({ iban: 'PL27114020040000300201355387', name: 'Anna Nowak' }, 50_00, 'Gift');
  const toReturn = await pay({ iban: 'PL83101010230000261395100000', name: 'ZUS' }, 30_00, 'Contribution');
  const transfer = await pay({ accountId: savings.id }, 200_00, 'Saving');
  expect([toCancel.status, toReject.status, toReturn.status, transfer.status]).toEqual(['ACTC', 'ACTC', 'ACTC', 'ACSC']);

  const watched = await openPage(stack.browser, stack.url);
  const { page } = watched;
  await signIn(page, stack.url, email);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
  await page.getByRole('heading', { name: 'Payments', exact: true, level: 1 }).waitFor();
  await expect.poll(() => rows(page).count()).toBe(4);
  // Money in its own currency, the IBAN in print form.
  expect(await row(page, 'Jan Kowalski').textContent()).toContain('PLN\u00a0120.00');
  expect(await row(page, 'Jan Kowalski').textContent()).toContain('PL61 1090 1014 0000 0712 1981 2874');

  // Filters: status (asked of the API), kind and scheme (of the page), account and direction; all in the address.
  const filters = page.getByRole('search', { name: 'Filter payments' });
  // A select's name begins with its label (its chosen option follows).
  const filter = (label: string) => filters.getByRole('combobox', { name: new RegExp(`^${label}`) });
  await filter('Status').selectOption('ACTC');
  await expect.poll(() => rows(page).count()).toBe(3);
  expect(page.url()).toContain('status=ACTC');
  await filter('Status').selectOption('');
  await filter('Kind').selectOption('own');
  await expect.poll(() => rows(page).count()).toBe(1);
  expect(await rows(page).textContent()).toContain('Savings');
  await filter('Kind').selectOption('');
  await filter('Scheme').selectOption('sepa');
  await page.getByText('No payments match.').waitFor();
  await filter('Scheme').selectOption('');
  await filter('Account').selectOption({ label: 'Savings' });
  await expect.poll(() => rows(page).count()).toBe(1);
  await filter('Direction').selectOption('out');
  await page.getByText('No payments match.').waitFor();
  await filter('Direction').selectOption('in');
  await expect.poll(() => rows(page).count()).toBe(1);
  await filter('Account').selectOption('');
  await expect.poll(() => rows(page).count()).toBe(4);

  // Cancel before its session: CANC, and nothing more can be done to it.
  await open(page, 'Jan Kowalski', 'ACTC');
  expect(await timeline(page).textContent()).toMatch(/RCVD.*ACTC.*ACSP.*next.*ACSC.*next/);
  await confirm(page, page.getByTestId('payment-panel'), 'Cancel payment');
  await expect.poll(() => page.getByTestId('payment-status').textContent()).toContain('CANC');
  expect(await timeline(page).textContent()).toContain('Cancelled');
  expect(
    await page
      .getByTestId('payment-panel')
      .getByRole('button', { name: /Simulate/ })
      .count(),
  ).toBe(0);
  await expect.poll(() => row(page, 'Jan Kowalski').textContent()).toContain('CANC');

  // The receiving side rejects one with AC04: the reason is in the timeline and the list.
  await open(page, 'Anna Nowak', 'ACTC');
  await page.getByRole('button', { name: 'Simulate rejection…' }).click();
  const rejectForm = page.getByRole('form', { name: 'Reject the payment' });
  await rejectForm.getByLabel('ISO reason code').selectOption('AC04');
  await rejectForm.getByRole('button', { name: 'Reject it' }).click();
  await expect.poll(() => page.getByTestId('payment-status').textContent()).toContain('RJCT');
  await expect.poll(() => timeline(page).getByTestId('step-reason').textContent()).toBe(' AC04 Closed account number');
  expect(await row(page, 'Anna Nowak').textContent()).toContain('AC04');

  // The calendar: the next Elixir and SEPA sessions on the world's clock.
  const calendar = page.getByRole('table', { name: 'Clearing sessions' });
  await expect.poll(() => calendar.getByRole('row').count()).toBeGreaterThan(4);
  expect(await calendar.textContent()).toMatch(/elixir.*sepa/);

  // A payment from the page's form: EUR over SEPA, waiting for its session.
  const form = page.getByRole('form', { name: 'Make a payment' });
  await form.getByLabel('From account').selectOption({ label: 'Euro · EUR\u00a0500.00 available' });
  await form.getByLabel('IBAN', { exact: true }).fill('DE89 3704 0044 0532 0130 00');
  await form.getByLabel("Creditor's name").fill('Max Mustermann');
  await form.getByLabel('Amount (EUR)').fill('12,50');
  await form.getByRole('button', { name: 'Send payment' }).click();
  await expect.poll(() => page.getByTestId('payment-made').textContent()).toContain('EUR\u00a012.50 made: ACTC');
  await open(page, 'Max Mustermann', 'ACTC');
  expect(await page.getByTestId('payment-panel').textContent()).toContain('SEPA (EUR, next TARGET day)');
  await expect.poll(() => rows(page).count()).toBe(5);

  // An own-account transfer: settled at once, its credit leg opens on the destination's page.
  await open(page, 'Savings', 'ACSC');
  expect(await timeline(page).textContent()).not.toContain('ACSP');
  const legs = page.getByTestId('payment-panel').getByRole('listitem').getByRole('link');
  await expect.poll(() => legs.count()).toBe(2);
  await legs.nth(1).click();
  await page.getByRole('heading', { name: 'Savings', level: 1 }).waitFor();
  await page.getByRole('region', { name: 'Transaction', exact: true }).getByText('Saving').first().waitFor();

  // A week on the world's clock settles the rest; a settled payment comes back with its reason.
  await call('POST', '/v1/clock/advance', { by: 'P7D' });
  await page.goto(`${stack.url}/console/payments?payment=${toReturn.id}`);
  await expect.poll(() => page.getByTestId('payment-status').textContent()).toContain('ACSC');
  expect(await timeline(page).textContent()).toMatch(/ACTC.*ACSP.*ACSC.*Settled · \d/);
  await page.getByRole('button', { name: 'Simulate return…' }).click();
  const returnForm = page.getByRole('form', { name: 'Return the payment' });
  await returnForm.getByLabel('ISO reason code').selectOption('MD07');
  await returnForm.getByRole('button', { name: 'Return it' }).click();
  await expect.poll(() => page.getByTestId('payment-status').textContent()).toContain('returned');
  expect(await timeline(page).textContent()).toContain('Returned');
  expect(await timeline(page).getByTestId('step-reason').textContent()).toBe(' MD07 End customer deceased');
  // The return is a credit: three transactions on the payment, the debit linked to its account.
  const returned = await call<{ transactionIds: string[]; returned: { reason: { code: string } } }>(
    'GET',
    `/v1/payments/${toReturn.id}`,
  );
  expect(returned.returned.reason.code).toBe('MD07');
  expect(await page.getByTestId('payment-panel').getByRole('listitem').count()).toBeGreaterThanOrEqual(
    returned.transactionIds.length,
  );
  await checkPage(watched, 'payments');
  await page.context().close();

  // Dark at a desk: accessible too.
  const dark = await openPage(stack.browser, stack.url, { colorScheme: 'dark' });
  await signIn(dark.page, stack.url, email);
  await dark.page.goto(`${stack.url}/console/payments?payment=${toReject.id}`);
  await dark.page.getByTestId('step-reason').waitFor();
  await dark.page.waitForLoadState('networkidle');
  await expectAccessible(dark.page, '/payments at 1280 px, dark');
  await dark.page.context().close();

  // On a phone: the list as cards, the payment in a sheet, no sideways scroll.
  await checkOnPhone(stack, email, [
    {
      path: `/payments?payment=${toReturn.id}`,
      name: 'payments',
      ready: (phone) => phone.getByTestId('step-reason').waitFor(),
    },
  ]);
});
