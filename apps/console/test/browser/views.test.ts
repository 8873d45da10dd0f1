/**
 * A URL for every view: an account's filters, page and selected transaction, the event log's
 * kind filter and the pages of lists are in the address, so a reload or a pasted link shows the
 * same view (sign-in first, then back to it). The transaction panel reads its transaction by id:
 * after Void it shows the voided transaction at its new version (it left the default list), so
 * nothing stale is left to act on.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, registerUser } from './api.ts';
import { expectAccessible, expectClean, money, openPage, textOf } from './browser.ts';
import { confirm, submitSignIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack({ worker: false });

const post = <T>(path: string, token: string, body: unknown) => callApi<T>(stack.url, 'POST', path, token, body);

/** A user with one account holding 25 posted credits (Pay 1 … Pay 25, oldest first) and one pending card debit. */
async function seed(email: string) {
  const { accessToken } = await registerUser(stack.url, email);
  const account = await post<{ id: string }>('/v1/accounts', accessToken, { name: 'Deep links' });
  for (let n = 1; n <= 25; n++) {
    await post('/v1/simulations/transaction', accessToken, { accountId: account.id, amount: n * 100, description: `Pay ${n}` });
  }
  const { transaction: hold } = await post<{ transaction: { id: string } }>('/v1/simulations/transaction', accessToken, {
    accountId: account.id,
    amount: -4_200,
    description: 'Card hold',
    status: 'pending',
  });
  return { accountId: account.id, holdId: hold.id };
}

const search = (page: Page) => new URL(page.url()).searchParams;

describe('a URL for every view', () => {
  it('keeps filters, page and the selected transaction in the address, over a reload and through sign-in', async () => {
    const email = `views-${Date.now()}@example.com`;
    const { accountId, holdId } = await seed(email);
    const watched = await openPage(stack.browser, stack.url);
    const { page } = watched;

    // A pasted link to page 2 of everything: sign-in first, then that very view.
    await page.goto(`${stack.url}/console/accounts/${accountId}?status=all&page=2`);
    await submitSignIn(page, email);
    await page.getByRole('heading', { name: 'Deep links' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/accounts/${accountId}`);
    expect(Object.fromEntries(search(page))).toEqual({ status: 'all', page: '2' });
    await page.getByText('21–26 of 26').waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('all');

    // Selecting a row puts it in the address; a reload opens the same panel on the same page.
    await page.getByRole('button', { name: 'Pay 2', exact: true }).click();
    await expect.poll(() => textOf(page, 'panel-amount')).toBe(`+${money(200)}`);
    const tx = search(page).get('tx');
    expect(tx).toMatch(/^[0-9a-f-]{36}$/);
    await page.reload();
    await expect.poll(() => textOf(page, 'panel-amount')).toBe(`+${money(200)}`);
    expect(Object.fromEntries(search(page))).toEqual({ status: 'all', page: '2', tx });
    await page.getByText('21–26 of 26').waitFor();
    await expectAccessible(page, 'account with a deep-linked transaction');

    // Back closes the panel (selecting was a step in history); Previous is a step too.
    await page.goBack();
    await expect.poll(() => search(page).get('tx')).toBeNull();
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('1–20 of 26').waitFor();
    expect(search(page).get('page')).toBeNull();

    // The default view, the pending hold opened and voided: the panel shows it voided, at its new
    // version, with nothing left to do — though it left the default list.
    await page.goto(`${stack.url}/console/accounts/${accountId}?tx=${holdId}`);
    await expect.poll(() => textOf(page, 'panel-amount')).toBe(money(-4_200));
    expect(await textOf(page, 'panel-version')).toBe('version 1');
    const voided = page.waitForResponse((r) => new URL(r.url()).pathname === '/trpc/transactions.voidTransaction');
    const panel = page.getByRole('region', { name: 'Transaction', exact: true });
    await confirm(page, panel, 'Void'); // it asks first (findings.test.ts)
    expect((await voided).status()).toBe(200);
    await expect.poll(() => textOf(page, 'panel-version')).toBe('version 2');
    expect(await panel.locator('.badge', { hasText: 'voided' }).count()).toBe(1);
    expect(await panel.getByRole('button', { name: /^(Void|Post…|Edit…)$/ }).count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Card hold' }).count()).toBe(0);
    await page.reload();
    await expect.poll(() => textOf(page, 'panel-version')).toBe('version 2');

    // Search, page size and jump, all in the address.
    await page.getByRole('searchbox', { name: 'Search' }).fill('pay 2');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => search(page).get('q')).toBe('pay 2');
    await page.getByText('1–7 of 7').waitFor(); // Pay 2, Pay 20 … Pay 25
    await page.getByRole('searchbox', { name: 'Search' }).fill('13,00');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1–1 of 1').waitFor();
    expect(await page.getByRole('button', { name: 'Pay 13', exact: true }).count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByLabel('Per page').selectOption('10');
    await page.getByText('1–10 of 25').waitFor();
    await page.getByLabel('Page (1–3)').fill('3');
    await page.getByRole('button', { name: 'Go' }).click();
    await page.getByText('21–25 of 25').waitFor();
    expect(search(page).get('size')).toBe('10');
    await page.reload();
    await page.getByText('21–25 of 25').waitFor();

    // Ids can be copied: the transaction's lands on the clipboard.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
    await page.getByRole('button', { name: 'Pay 1', exact: true }).click();
    const txId = await page.waitForURL(/tx=/).then(() => search(page).get('tx'));
    await page.getByRole('button', { name: 'Copy transaction id' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(txId);
    expect(await page.getByRole('button', { name: 'Copy account id' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Copy user id' }).count()).toBe(1);
    await expectAccessible(page, 'search, page size and jump');

    // The event log's kind filter is in the address too.
    await page.getByRole('link', { name: 'Event log' }).click();
    await page.getByLabel('Kind').selectOption('transaction.created');
    await expect.poll(() => search(page).get('type')).toBe('transaction.created');
    await page.reload();
    await page.getByRole('heading', { name: 'Event log' }).waitFor();
    expect(await page.getByLabel('Kind').inputValue()).toBe('transaction.created');
    await expectClean(watched);
    await page.context().close();
  });
});
