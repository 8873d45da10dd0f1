/**
 * The console as a user drives it, in headless Chromium against the real API, a real worker and
 * a local webhook receiver: register, open an account, simulate, watch the balance, see an error
 * with its traceId, register a webhook and see its delivery, redeliver, create an API key and
 * pull with it, sign out and in again, and use it at phone width. On every page: axe-core finds
 * no serious or critical violation, the CSP refuses nothing, nothing leaves the origin; each page
 * is photographed (SCREENSHOT_DIR=docs/console for the pictures in docs/reference/console.md).
 */

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from './api.ts';
import { checkPage, documentWidth, money, openPage, textOf } from './browser.ts';
import { register, simulate, submitSignIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack();

/** Waits until the account page shows these balance, held and available figures. */
async function expectFigures(page: Page, balance: number, held: number, available: number): Promise<void> {
  await expect
    .poll(() => Promise.all([textOf(page, 'balance'), textOf(page, 'held'), textOf(page, 'available')]))
    .toEqual([money(balance), money(held), money(available)]);
}

describe('the console in a browser', () => {
  it('takes a new user from registration to a delivered webhook and an API key', async () => {
    const watched = await openPage(stack.browser, stack.url);
    const { page } = watched;
    const email = `console-${Date.now()}@example.com`;
    const password = PASSWORD;

    // Sign-in first: an unknown path under /console lands on it.
    await page.goto(`${stack.url}/console/webhooks`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/login');
    await checkPage(watched, 'login');

    // A wrong password shows the contract's message, code and a copyable traceId.
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('INVALID_CREDENTIALS');
    expect(await textOf(page, 'trace-id')).toMatch(/^[0-9a-f-]{36}$/);

    await page.getByRole('link', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Create your sandbox' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await checkPage(watched, 'register');
    const registered = page.waitForResponse((response) => new URL(response.url()).pathname === '/trpc/auth.register');
    await page.getByRole('button', { name: 'Register' }).click();
    const { refreshToken } = (await (await registered).json()).result.data.data;

    // Accounts: open one.
    await page.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
    await page.getByLabel('Name').fill('Daily spending');
    await page.getByRole('button', { name: 'Open account' }).click();
    await page.getByRole('link', { name: 'Daily spending' }).waitFor();
    expect(await textOf(page, 'account-balance')).toBe(money(0));

    // The account: a credit and a debit move the balance; an overdraft is refused with a traceId.
    await page.getByRole('link', { name: 'Daily spending' }).click();
    await page.getByRole('heading', { name: 'Daily spending' }).waitFor();
    await simulate(page, 'in', '1500', 'Salary');
    await expect.poll(() => textOf(page, 'balance')).toBe(money(150_000));
    await simulate(page, 'out', '12,50', 'Coffee');
    await expect.poll(() => textOf(page, 'balance')).toBe(money(148_750));
    const history = page.getByRole('table', { name: 'Transactions' });
    await expect.poll(() => history.getByRole('row').count()).toBe(3); // header + 2
    expect(await history.textContent()).toContain(`+${money(150_000)}`);
    expect(await history.textContent()).toContain(money(-1_250));
    await history.getByRole('button', { name: 'Coffee' }).click();
    const details = page.getByRole('region', { name: 'Transaction', exact: true });
    await details.getByText(/^sim_/).waitFor();
    expect(await details.textContent()).toContain(money(-1_250));
    await simulate(page, 'out', '5000', 'Too much');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('INSUFFICIENT_FUNDS');
    expect(await textOf(page, 'trace-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await textOf(page, 'balance')).toBe(money(148_750));

    // A pending card payment holds money: the balance stays, the available balance drops.
    await simulate(page, 'out', '50', 'Card payment', { pending: true, merchant: 'Biedronka' });
    await expectFigures(page, 148_750, 5_000, 143_750);
    const cardRow = history.getByRole('row', { name: /Card payment/ });
    expect(await cardRow.textContent()).toContain('pending');
    // Posting it for 55 zł (a tip): the hold goes, the balance moves by the final amount.
    await cardRow.getByRole('button', { name: 'Card payment' }).click();
    await details.getByRole('button', { name: 'Post…' }).click();
    await details.getByLabel('Final amount in PLN').fill('55');
    await checkPage(watched, 'account-post');
    await details.getByRole('button', { name: 'Post it' }).click();
    await expectFigures(page, 143_250, 0, 143_250);
    await expect.poll(() => cardRow.textContent()).toContain('posted');
    // The panel reads its transaction by id, apart from the list and the figures: it may land later.
    await expect.poll(() => textOf(page, 'panel-amount')).toBe(money(-5_500));

    // Another authorisation, voided: the hold is released and the row leaves the default view.
    await simulate(page, 'out', '20', 'Parking', { pending: true });
    await expectFigures(page, 143_250, 2_000, 141_250);
    await history.getByRole('button', { name: 'Parking' }).click();
    await details.getByRole('button', { name: 'Void' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Void' }).click(); // it asks first
    await expectFigures(page, 143_250, 0, 143_250);
    await expect.poll(() => history.getByRole('row', { name: /Parking/ }).count()).toBe(0);
    await page.getByLabel('Status').selectOption('voided');
    await expect.poll(() => history.getByRole('row', { name: /Parking/ }).textContent()).toContain('voided');
    await page.getByLabel('Status').selectOption('');

    // A partial refund of the coffee: a new credit that points at it.
    await history.getByRole('button', { name: 'Coffee' }).click();
    await details.getByRole('button', { name: 'Reverse…' }).click();
    await details.getByLabel('Amount to give back in PLN').fill('2,50');
    await details.getByRole('button', { name: 'Reverse it' }).click();
    await expectFigures(page, 143_500, 0, 143_500);
    await expect.poll(() => history.getByRole('row', { name: /Reversal/ }).textContent()).toContain(`+${money(250)}`);
    // Editing: merchant and category on the salary (sent with the version it was read at).
    await history.getByRole('button', { name: 'Salary' }).click();
    await details.getByRole('button', { name: 'Edit…' }).click();
    await details.getByLabel('Merchant').fill('ACME sp. z o.o.');
    await details.getByLabel('Category').selectOption('salary');
    await details.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => history.getByRole('row', { name: /Salary/ }).textContent()).toContain('ACME sp. z o.o. · Salary');
    // The panel reads its transaction by id after the action: it may land after the list's row.
    await expect.poll(() => details.textContent()).toContain('version 2');
    await checkPage(watched, 'account');

    // Webhooks: register one to the local receiver.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    await page.getByLabel('URL').fill(`${stack.receiver.url}/hooks/sandbank`);
    await page.getByLabel('Client id').fill('budget-app');
    await page.getByRole('button', { name: 'Register webhook' }).click();
    await page.getByRole('link', { name: `${stack.receiver.url}/hooks/sandbank` }).waitFor();
    await checkPage(watched, 'webhooks');

    // Simulate from the Simulate page; the delivery shows up by itself with the receiver's answer.
    await page.getByRole('link', { name: 'Simulate' }).click();
    await page.getByRole('heading', { name: 'New transaction' }).waitFor();
    await simulate(page, 'out', '42', 'Groceries');
    await page.getByRole('status').filter({ hasText: 'Booked' }).waitFor();
    await checkPage(watched, 'simulate');
    const [delivered] = await stack.receiver.waitFor(1);
    const event = JSON.parse(delivered?.rawBody ?? '{}');
    expect(event.data.transaction).toMatchObject({ amount: -4_200, description: 'Groceries' });

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: 'Deliveries' }).click();
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await expect.poll(() => deliveries.textContent(), { timeout: 15_000 }).toContain('succeeded');
    expect(await textOf(page, 'status-code')).toBe('204');
    await checkPage(watched, 'deliveries');

    // Redeliver: the receiver gets the same event again, and the page shows the second attempt.
    await page.getByRole('button', { name: 'Redeliver' }).click();
    const again = await stack.receiver.waitFor(2);
    expect(JSON.parse(again[1]?.rawBody ?? '{}').id).toBe(event.id);
    await expect
      .poll(() => deliveries.getByRole('group').first().locator(':scope > summary').textContent(), { timeout: 15_000 })
      .toBe('2');

    // The event log: every change so far, newest first; it grows by itself when another client acts.
    await page.getByRole('link', { name: 'Event log' }).click();
    const log = page.getByRole('list', { name: 'Events' });
    // 6 created (salary, coffee, card payment, parking, refund, groceries), 2 updated (posted, edited), 1 removed.
    await expect.poll(() => log.getByRole('listitem').count()).toBe(9);
    expect(await log.getByRole('listitem').first().textContent()).toContain('Groceries');
    const api = await stack.app.call('POST', '/v1/auth/login', { body: { email, password } });
    const [account] = (await stack.app.call('GET', '/v1/accounts', { token: api.body.data.accessToken })).body.data;
    const elsewhere = await stack.app.call('POST', '/v1/simulations/transaction', {
      token: api.body.data.accessToken,
      body: { accountId: account.id, amount: -700, description: 'From another client' },
    });
    expect(elsewhere.status).toBe(201);
    await expect
      .poll(() => log.getByRole('listitem').first().textContent(), { timeout: 10_000 })
      .toContain('From another client');
    await page.getByLabel('Kind').selectOption('transaction.removed');
    await expect.poll(() => log.getByRole('listitem').count()).toBe(1);
    expect(await log.textContent()).toContain('Parking');
    await page.getByLabel('Kind').selectOption('');
    await expect.poll(() => log.getByRole('listitem').count()).toBe(10);
    await checkPage(watched, 'events');

    // API keys: the key is shown once and works on the pull endpoint.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Budget app');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent())?.trim() ?? '';
    expect(key).toMatch(/^sbk_[\w-]{43}$/);
    const pulled = await fetch(`${stack.url}/api/owner/${encodeURIComponent(email)}/transactions`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(pulled.status).toBe(200);
    expect((await pulled.json()).meta.total).toBe(6); // salary, coffee, card payment, refund, groceries, another client's
    await checkPage(watched, 'api-keys');

    // Closing an account asks for its name and the password again, as the API does.
    await page.getByRole('link', { name: 'Accounts' }).click();
    await page.getByLabel('Name').fill('Spare');
    await page.getByRole('button', { name: 'Open account' }).click();
    await page.getByRole('link', { name: 'Spare' }).click();
    await page.getByText('Close this account').click();
    await page.getByLabel('Type the name').fill('Sprae');
    await page.getByLabel('Your password').fill(password);
    await page.getByRole('button', { name: 'Close account' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('CONFIRMATION_MISMATCH');
    await page.getByLabel('Type the name').fill('Spare');
    await page.getByRole('button', { name: 'Close account' }).click();
    await page.locator('.page-header .badge', { hasText: 'closed' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Simulate' }).count()).toBe(0);

    // Sign out: back to sign-in, nothing of the session left; signing in again shows the data.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The refresh token the page saw was spent when the cookie adopted the session, and sign-out
    // revoked the session: it no longer works, and the cookie is gone.
    const reused = await fetch(`${stack.url}/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    expect(reused.status).toBe(401);
    expect(await page.context().cookies()).toEqual([]);
    await page.goto(`${stack.url}/console/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const stored = await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]);
    expect(stored).toEqual([0, 0, '']);
    await submitSignIn(page, email, password);
    await page.getByRole('link', { name: 'Daily spending' }).waitFor();
    expect(
      await page
        .getByRole('row', { name: /Daily spending/ })
        .getByTestId('account-balance')
        .textContent(),
    ).toBe(money(138_600));
    expect(await page.getByRole('row', { name: /Spare/ }).textContent()).toContain('closed');
    await checkPage(watched, 'accounts');
    await page.context().close();
  });

  it('works at phone width, in the dark scheme too', async () => {
    const watched = await openPage(stack.browser, stack.url, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const { page } = watched;
    await register(page, stack.url, `phone-${Date.now()}@example.com`);
    // By keyboard: the first Tab reaches the skip link, Enter submits a form, links open with Enter.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.getByLabel('Name').fill('Pocket');
    await page.getByLabel('Name').press('Enter');
    await page.getByRole('link', { name: 'Pocket' }).focus();
    await page.keyboard.press('Enter');
    await simulate(page, 'in', '99,99', 'Gift');
    await expect.poll(() => textOf(page, 'balance')).toBe(money(9_999));
    // Nothing wider than the screen: the page does not scroll sideways.
    expect(await documentWidth(page)).toBeLessThanOrEqual(390);
    await checkPage(watched, 'phone-account');
    await page.context().close();
  });
});
