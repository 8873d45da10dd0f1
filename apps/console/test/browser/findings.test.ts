/**
 * The findings of the walk through the first console, each checked at its cause:
 * - a selected transaction opens as a bottom sheet in view on a phone, not 1,300 px below (every
 *   page at 390 × 844, light and dark, no wider than the screen: every-page.test.ts);
 * - Void, Revoke and Delete ask first (a modal dialog; Cancel changes nothing);
 * - offline, a call fails as NETWORK (never INTERNAL) with Retry, an offline banner shows, and a
 *   booking tried offline is not sent when the network returns;
 * - money and dates in one locale (en-GB) whatever the browser's language;
 * - a world-clock badge on every page, and timestamps labelled world or real time.
 * axe reports no serious or critical violation on each page.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { documentWidth, expectAccessible, money, openPage, textOf } from './browser.ts';
import { confirm, signIn as signInAt } from './pages.ts';
import { SEEDED_BALANCE, seedWideWorld } from './seed.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack();

const seed = (email: string) => seedWideWorld(stack, email);

const signIn = (page: Page, email: string) => signInAt(page, stack.url, email);

describe('the findings, fixed at their cause', () => {
  it('opens a transaction as a bottom sheet on a phone (every page at 390 px: every-page.test.ts)', async () => {
    const email = `phone-${Date.now()}@example.com`;
    const { accountId } = await seed(email);
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page } = await openPage(stack.browser, stack.url, { viewport: { width: 390, height: 844 }, colorScheme });
      await signIn(page, email);
      // The selected transaction is a bottom sheet: in view, at the bottom of the screen.
      await page.goto(`${stack.url}/console/accounts/${accountId}`);
      await page.getByRole('button', { name: 'Card hold' }).click();
      const sheet = page.getByRole('region', { name: 'Transaction', exact: true });
      await sheet.waitFor();
      const box = await sheet.boundingBox();
      expect(box).not.toBeNull();
      expect(box && Math.round(box.y + box.height)).toBeLessThanOrEqual(844);
      expect(box?.y).toBeGreaterThan(0);
      expect(await documentWidth(page)).toBe(390);
      await sheet.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('tx')).toBeNull();
      await page.context().close();
    }
  });

  it('asks before Void, Revoke and Delete; Cancel changes nothing', async () => {
    const email = `confirm-${Date.now()}@example.com`;
    const { accountId, holdId, hookId } = await seed(email);
    const { page } = await openPage(stack.browser, stack.url);
    await signIn(page, email);
    const voids: string[] = [];
    page.on('request', (request) => {
      if (/voidTransaction|revokeApiKey|deleteWebhook|deleteSchedule/.test(request.url())) voids.push(request.url());
    });

    await page.goto(`${stack.url}/console/accounts/${accountId}?tx=${holdId}`);
    const panel = page.getByRole('region', { name: 'Transaction', exact: true });
    await panel.getByRole('button', { name: 'Void' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Void this pending transaction?');
    await expectAccessible(page, 'void confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(voids).toEqual([]);
    await confirm(page, panel, 'Void');
    await expect.poll(() => textOf(page, 'panel-version')).toBe('version 2');
    expect(voids).toHaveLength(1);

    await page.goto(`${stack.url}/console/api-keys`);
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(voids).toHaveLength(1);
    await confirm(page, page, 'Revoke');
    await expect.poll(() => voids.length).toBe(2);

    await page.goto(`${stack.url}/console/webhooks`);
    await page.getByRole('link', { name: 'Deliveries' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.goto(`${stack.url}/console/webhooks/${hookId}`);
    await page.getByRole('heading', { name: 'Deliveries', exact: true }).waitFor();
    expect(voids).toHaveLength(2);
    await page.context().close();
  });

  it('offline: NETWORK with Retry and a banner, and a booking tried offline is never sent later', async () => {
    const email = `offline-${Date.now()}@example.com`;
    const { accountId } = await seed(email);
    const { page } = await openPage(stack.browser, stack.url);
    await signIn(page, email);
    await page.goto(`${stack.url}/console/accounts/${accountId}`);
    await expect.poll(() => textOf(page, 'balance')).toBe(money(SEEDED_BALANCE));
    const simulations: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('simulations.simulateTransaction')) simulations.push(request.url());
    });
    // Every panel loads before the network goes; a panel still loading would fail with its own alert.
    await page.waitForLoadState('networkidle');

    await page.context().setOffline(true);
    await page.getByTestId('offline-banner').waitFor();
    await page.getByLabel('Money in (credit)').check();
    await page.getByLabel('Amount (PLN)').fill('50');
    await page.getByLabel('Description').fill('Offline try');
    await page.getByRole('button', { name: 'Simulate' }).click();
    const alert = page.getByRole('region', { name: 'Simulate' }).getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('NETWORK');
    expect(await alert.textContent()).not.toContain('INTERNAL');
    await alert.getByRole('button', { name: 'Retry' }).waitFor();
    expect(await page.getByRole('button', { name: 'Simulate' }).isEnabled()).toBe(true);
    await expectAccessible(page, 'offline');

    // Back online: the banner goes; nothing was queued, so nothing is booked by itself.
    await page.context().setOffline(false);
    await page.getByTestId('offline-banner').waitFor({ state: 'hidden' });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    await expect.poll(() => textOf(page, 'balance')).toBe(money(SEEDED_BALANCE));
    expect(await page.getByRole('button', { name: 'Offline try' }).count()).toBe(0);
    const accounts = await stack.app.db.query("select count(*)::int as n from transactions where description = 'Offline try'");
    expect(accounts.rows[0].n).toBe(0);
    expect(simulations.length).toBeLessThanOrEqual(1); // the one offline attempt, which failed
    await page.context().close();
  });

  it('shows money and dates in en-GB whatever the browser speaks, and the world clock with labels', async () => {
    const email = `locale-${Date.now()}@example.com`;
    const { accountId } = await seed(email);
    const { page } = await openPage(stack.browser, stack.url, { locale: 'en-US', timezoneId: 'Europe/Warsaw' });
    await signIn(page, email);
    await page.goto(`${stack.url}/console/accounts/${accountId}`);
    await expect.poll(() => textOf(page, 'balance')).toBe(money(SEEDED_BALANCE));
    // en-GB medium dates: "26 Nov 2026, 01:23" — day, English month, year, 24-hour time.
    const englishDate = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec) \d{4}, \d{2}:\d{2}$/;
    // The world clock loads on its own; until then it shows "…".
    await expect.poll(() => textOf(page, 'world-time')).toMatch(englishDate);
    // The transactions are a query of their own, apart from the account's figures.
    const firstDate = page.getByRole('table', { name: 'Transactions' }).getByRole('row').nth(1).getByRole('cell').first();
    await expect.poll(() => firstDate.textContent()).toMatch(englishDate);
    expect(await page.getByRole('columnheader', { name: 'Date (world time)' }).count()).toBe(1);
    expect(await page.getByTestId('world-clock').textContent()).toMatch(/World time.*real time/);
    await page.context().close();
  });
});
