/**
 * Accounts in other currencies, in headless Chromium against the real API: each amount is written in
 * its own currency by the currency's minor unit (yen whole, fils to three places), a card payment
 * abroad shows what the merchant charged beside the booked amount, and an account opened in yen
 * takes its amounts in yen in the simulate form. Accessible at 1280×900.
 */
import { describe, expect, it } from 'vitest';
import { callApi, registerUser } from './api.ts';
import { expectAccessible, expectClean, openPage, textOf } from './browser.ts';
import { signIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack({ worker: false });

const api = <T>(method: string, path: string, token: string, body?: unknown) => callApi<T>(stack.url, method, path, token, body);

/** How en-GB writes an amount by its ISO code: what the console must show. */
const written = (minor: number, currency: string, exponent: number) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency, currencyDisplay: 'code' }).format(minor / 10 ** exponent);

describe('the console in several currencies', () => {
  it('writes every amount in its own currency, with the merchant’s amount beside a converted card payment', async () => {
    const email = `currencies-${Date.now()}@example.com`;
    const { accessToken: token } = await registerUser(stack.url, email);
    const open = (name: string, currency: string) => api<{ id: string }>('POST', '/v1/accounts', token, { name, currency });
    const yen = await open('Tokyo trip', 'JPY');
    const fils = await open('Kuwait desk', 'KWD');
    const euro = await open('Euro card', 'EUR');
    const book = (accountId: string, body: Record<string, unknown>) =>
      api<{ transaction: { amount: number; originalAmount?: number; originalCurrency?: string } }>(
        'POST',
        '/v1/simulations/transaction',
        token,
        { accountId, description: 'Booked', ...body },
      );
    await book(yen.id, { amount: 1_234_567 });
    await book(fils.id, { amount: 5 });
    await book(euro.id, { amount: 100_00 });
    const card = (await book(euro.id, { originalAmount: -25_00, originalCurrency: 'USD', description: 'Diner, New York' }))
      .transaction;
    expect(card.originalCurrency).toBe('USD');

    const watched = await openPage(stack.browser, stack.url, { viewport: { width: 1280, height: 900 } });
    const { page } = watched;
    await signIn(page, stack.url, email);
    const list = page.getByRole('table');
    await expect.poll(() => list.textContent()).toContain(written(1_234_567, 'JPY', 0));
    const text = (await list.textContent()) ?? '';
    expect(text).toContain('JPY\u00a01,234,567');
    expect(text).toContain('KWD\u00a00.005');
    expect(text).toContain(written(100_00 + card.amount, 'EUR', 2));
    await expectAccessible(page, 'accounts in three currencies');

    // The card payment abroad: booked in euro, the merchant's dollars beside it.
    await page.getByRole('link', { name: 'Euro card' }).click();
    await page.getByRole('heading', { name: 'Euro card' }).waitFor();
    const row = page.getByRole('row', { name: /Diner, New York/ });
    await expect.poll(() => row.textContent()).toContain(`${written(card.amount, 'EUR', 2)} (-USD\u00a025.00)`);
    await expect.poll(() => textOf(page, 'balance')).toBe(written(100_00 + card.amount, 'EUR', 2));

    // An account opened in yen in the console takes yen: whole amounts, no decimals.
    await page.goto(`${stack.url}/console/`);
    await page.getByLabel('Name').fill('Osaka');
    await page.getByLabel('Currency').selectOption('JPY');
    await page.getByRole('button', { name: 'Open account' }).click();
    await page.getByRole('link', { name: 'Osaka' }).click();
    await page.getByRole('heading', { name: 'Osaka' }).waitFor();
    await page.getByLabel('Money in (credit)').check();
    await page.getByLabel('Amount (JPY)').fill('12.5');
    await page.getByLabel('Description').fill('Not yen');
    await page.getByRole('button', { name: 'Simulate' }).click();
    await page.getByText('Enter a positive amount with no decimals.').waitFor();
    await page.getByLabel('Amount (JPY)').fill('1,250');
    await page.getByRole('button', { name: 'Simulate' }).click();
    await page.getByText('Booked JPY\u00a01,250.').waitFor();
    await expect.poll(() => textOf(page, 'balance')).toBe('JPY\u00a01,250');
    await expectAccessible(page, 'a yen account');
    await expectClean(watched);
  });
});
