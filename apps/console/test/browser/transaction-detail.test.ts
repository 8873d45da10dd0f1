/**
 * A transaction's detail view and an account's balance chart, in headless Chromium against the real
 * API: the JSON is the API's own answer, the event timeline is in log order, a reversal and its
 * original link to each other through `?tx=` (Back returns), and the chart (recharts) is named,
 * drawn, and told in words and a table. Accessible and without sideways scrolling at 390×844 in
 * light and dark, and at 1280×900.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, registerUser } from './api.ts';
import { checkPage, documentWidth, expectAccessible, expectClean, money, openPage, screenshot, textOf } from './browser.ts';
import { submitSignIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack({ worker: false });

const DAY_MS = 86_400_000;

const api = <T>(method: string, path: string, token: string, body?: unknown) => callApi<T>(stack.url, method, path, token, body);

interface Tx {
  id: string;
}

/**
 * A user whose account got a salary 10 days ago, rent 6 days ago, a card payment today (pending,
 * patched, posted) and groceries 2 days ago, refunded in part today: 1500 − 200 − 45 − 120 + 30 = 1165 zł.
 */
async function seed(email: string) {
  const { accessToken: token } = await registerUser(stack.url, email);
  const account = await api<{ id: string }>('POST', '/v1/accounts', token, { name: 'Wykres' });
  const { now } = await api<{ now: string }>('GET', '/v1/clock', token);
  const ago = (days: number) => new Date(Date.parse(now) - days * DAY_MS).toISOString();
  const book = async (body: Record<string, unknown>) =>
    (await api<{ transaction: Tx }>('POST', '/v1/simulations/transaction', token, { accountId: account.id, ...body }))
      .transaction;
  await book({ amount: 150_000, date: ago(10), description: 'Wynagrodzenie', category: 'salary' });
  await book({ amount: -20_000, date: ago(6), description: 'Czynsz', category: 'housing' });
  const card = await book({ amount: -4_500, status: 'pending', description: 'ORLEN 123', merchant: 'Orlen' });
  await api('PATCH', `/v1/transactions/${card.id}`, token, { description: 'Orlen, stacja 123' });
  await api('POST', `/v1/transactions/${card.id}/post`, token, {});
  const groceries = await book({ amount: -12_000, date: ago(2), description: 'Lidl', merchant: 'Lidl' });
  const refund = (await api<{ transaction: Tx }>('POST', `/v1/transactions/${groceries.id}/reverse`, token, { amount: 3_000 }))
    .transaction;
  return { token, accountId: account.id, cardId: card.id, groceriesId: groceries.id, refundId: refund.id };
}

const txOf = (page: Page) => new URL(page.url()).searchParams.get('tx');
const CHART_NAME = 'Balance at the end of each day';

describe('transaction detail and balance chart', () => {
  it('shows the JSON, the timeline in order, links reversal ↔ original through ?tx=, and the chart (1280×900)', async () => {
    const email = `detail-${Date.now()}@example.com`;
    const seeded = await seed(email);
    const watched = await openPage(stack.browser, stack.url, { viewport: { width: 1280, height: 900 } });
    const { page } = watched;
    await page.goto(`${stack.url}/console/accounts/${seeded.accountId}?status=all&tx=${seeded.cardId}`);
    await submitSignIn(page, email);
    await page.getByRole('heading', { name: 'Wykres' }).waitFor();

    // The JSON is the API's answer for this transaction, as it is now (version 3: created, patched, posted).
    await page.getByText('JSON, as the API returns it').click();
    const fromApi = await api<Record<string, unknown>>('GET', `/v1/transactions/${seeded.cardId}`, seeded.token);
    expect(fromApi.version).toBe(3);
    await expect.poll(async () => JSON.parse((await textOf(page, 'transaction-json')) ?? 'null')).toEqual(fromApi);
    await page.getByRole('button', { name: 'Copy JSON' }).waitFor();
    await page.getByRole('button', { name: 'Copy transaction id' }).waitFor();

    // Its timeline, oldest first, each with its event id to copy.
    const timeline = page.getByTestId('timeline-event');
    await expect.poll(() => timeline.count()).toBe(3);
    expect(await timeline.locator('strong').allTextContents()).toEqual(['Created (pending)', 'Updated: description', 'Posted']);
    expect(await timeline.evaluateAll((items) => items.map((item) => item.getAttribute('data-type')))).toEqual([
      'transaction.created',
      'transaction.updated',
      'transaction.updated',
    ]);
    expect(await page.getByRole('button', { name: 'Copy event id' }).count()).toBe(3);

    // The original names its refund; the link selects it (filters kept), and the refund links back.
    await page.goto(`${stack.url}/console/accounts/${seeded.accountId}?status=all&tx=${seeded.groceriesId}`);
    await expect.poll(() => textOf(page, 'panel-amount')).toBe(money(-12_000));
    await expect.poll(() => timeline.locator('strong').allTextContents()).toEqual(['Created (posted)', 'Reversed']);
    await page.getByTestId('reversal-link').click();
    await expect.poll(() => txOf(page)).toBe(seeded.refundId);
    expect(new URL(page.url()).searchParams.get('status')).toBe('all');
    await expect.poll(() => textOf(page, 'panel-amount')).toBe(`+${money(3_000)}`);
    // The link left with the old panel: the new panel's heading has the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('transaction-title');
    await expect.poll(() => timeline.locator('strong').allTextContents()).toEqual(['Created as a reversal']);
    await page.getByRole('button', { name: 'Copy original id' }).waitFor();
    await page.getByTestId('reverses-link').click();
    await expect.poll(() => txOf(page)).toBe(seeded.groceriesId);
    await expect.poll(() => textOf(page, 'panel-amount')).toBe(money(-12_000));
    await page.goBack();
    await expect.poll(() => txOf(page)).toBe(seeded.refundId);
    await expect.poll(() => textOf(page, 'panel-amount')).toBe(`+${money(3_000)}`);

    // The chart: named, drawn, and the same numbers in words and as a table of the last 90 days.
    const chart = page.getByRole('application', { name: CHART_NAME });
    await chart.waitFor();
    expect(await chart.locator('.recharts-line-curve').getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/);
    const summary = await textOf(page, 'balance-chart-summary');
    expect(summary).toContain(`lowest ${money(0)}`);
    expect(summary).toContain(`highest ${money(150_000)}`);
    expect(summary).toContain(`now ${money(116_500)}`);
    // The figures are the account's own query, apart from the chart's.
    await expect.poll(() => textOf(page, 'balance')).toBe(money(116_500));
    await page.getByText('Every day as a table').click();
    const rows = page.getByTestId('balance-chart').locator('tbody tr');
    /** The table's balances, oldest day first. */
    const balances = () => rows.locator('td:last-child').allTextContents();
    const daily = await balances();
    expect(daily).toHaveLength(90);
    // Today, 10 days ago (the salary) and the day before it.
    expect([daily.at(-1), daily.at(-11), daily.at(-12)]).toEqual([money(116_500), money(150_000), money(0)]);
    // The y axis speaks złoty (compact), the x axis dates, both in the console's en-GB.
    const ticks = await chart.locator('.recharts-cartesian-axis-tick-value').allTextContents();
    expect(ticks.filter((tick) => /^PLN\s\d+(\.\d)?K?$/.test(tick)).length, ticks.join(' | ')).toBeGreaterThan(1);
    expect(
      ticks.filter((tick) => /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)$/.test(tick)).length,
    ).toBeGreaterThan(1);
    // Another range is in the address (the selection kept); the server counts it back from the world's today.
    await page.getByLabel('Range').selectOption({ label: 'Last 30 days' });
    await expect.poll(() => new URL(page.url()).searchParams.get('range')).toBe('30');
    expect(txOf(page)).toBe(seeded.refundId);
    await expect.poll(() => rows.count()).toBe(30);
    expect((await balances()).at(-1)).toBe(money(116_500));
    await checkPage(watched, 'transaction-detail');
  });

  it('keeps the page when the chart’s chunk does not arrive, and draws it on Retry', async () => {
    const email = `detail-chunk-${Date.now()}@example.com`;
    const seeded = await seed(email);
    const watched = await openPage(stack.browser, stack.url, { viewport: { width: 1280, height: 900 } });
    const { page } = watched;
    const refused = (route: { abort(): Promise<void> }) => route.abort();
    await page.route('**/assets/balance-plot-*.js', refused);
    await page.goto(`${stack.url}/console/accounts/${seeded.accountId}`);
    await submitSignIn(page, email);
    const chart = page.getByTestId('balance-chart');
    await chart.getByText('The chart could not be loaded (NETWORK)').waitFor();
    // The rest of the page works: the figures (their own query), the summary and the table are there.
    await expect.poll(() => textOf(page, 'balance')).toBe(money(116_500));
    expect(await textOf(page, 'balance-chart-summary')).toContain(`now ${money(116_500)}`);
    await page.getByLabel('Money in (credit)').waitFor();
    await page.unroute('**/assets/balance-plot-*.js', refused);
    await chart.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('application', { name: CHART_NAME }).waitFor();
    await expectAccessible(page, 'the chart after Retry');
    await page.context().close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`fits 390×844 without sideways scrolling and is axe-clean (${colorScheme})`, async () => {
      const email = `detail-phone-${colorScheme}-${Date.now()}@example.com`;
      const seeded = await seed(email);
      const watched = await openPage(stack.browser, stack.url, { viewport: { width: 390, height: 844 }, colorScheme });
      const { page } = watched;
      await page.goto(`${stack.url}/console/accounts/${seeded.accountId}?tx=${seeded.groceriesId}`);
      await submitSignIn(page, email);
      await page.getByRole('application', { name: CHART_NAME }).waitFor();
      await expect.poll(() => page.getByTestId('timeline-event').count()).toBe(2);
      await page.getByText('JSON, as the API returns it').click();
      await page.getByText('Every day as a table').click();
      await page.waitForLoadState('networkidle');
      expect(await documentWidth(page)).toBe(390);
      await expectAccessible(page, `transaction detail at 390 px (${colorScheme})`);
      await expectClean(watched);
      await screenshot(page, colorScheme === 'light' ? 'phone-transaction-detail' : 'phone-transaction-detail-dark');
    });
  }
});
