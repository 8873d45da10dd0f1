/**
 * What a first-time user saw, checked in Chromium:
 * - a signed-out load of any page logs no console error and no failed request (the start-up's
 *   look for a cookie session answers "no session" as data, not as a 401);
 * - one locale, en-GB, for every date, count and amount on every page, whatever the browser
 *   speaks (en-US with its `mm/dd/yyyy` date inputs, pl-PL): no Polish month beside English words;
 * - every table at 1280 × 900 and 390 × 844 (where its rows become cards): no word of a row's
 *   first cell broken across lines, and every button and link of every row inside the screen.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { money, openPage, screenshot, textOf } from './browser.ts';
import { signIn as signInAt } from './pages.ts';
import { SEEDED_BALANCE, type SeededWorld, seedWideWorld } from './seed.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack();
const email = `first-look-${Date.now()}@example.com`;
let world: SeededWorld;
beforeAll(async () => {
  world = await seedWideWorld(stack, email);
});

/** Signs in; photographs the page when it does not get there (a slow machine or a real fault). */
async function signIn(page: Page): Promise<void> {
  await signInAt(page, stack.url, email).catch(async (error: unknown) => {
    await screenshot(page, 'first-look/not-signed-in');
    throw error;
  });
}

/** Everything a page logged as an error and every request that failed or was answered 4xx/5xx. */
function recordFailures(page: Page): { errors: string[]; failed: string[] } {
  const errors: string[] = [];
  const failed: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('requestfailed', (request) => failed.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.request().method()} ${response.url()}: ${response.status()}`);
  });
  return { errors, failed };
}

describe('a signed-out load', () => {
  it('logs no console error and no failed request, on any page', async () => {
    const watched = await openPage(stack.browser, stack.url);
    const { page } = watched;
    const seen = recordFailures(page);
    const probes: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/console/session/refresh') probes.push(response.status());
    });
    for (const where of ['/', '/login', '/register', '/accounts/00000000-0000-0000-0000-000000000000', '/webhooks']) {
      await page.goto(`${stack.url}/console${where}`);
      const heading = where === '/register' ? 'Create your sandbox' : 'Sign in';
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
    }
    // The probe was asked on every load (and answered), and nothing went red.
    expect(probes.length).toBeGreaterThanOrEqual(5);
    expect(probes.every((status) => status === 200)).toBe(true);
    expect(seen).toEqual({ errors: [], failed: [] });
    await page.context().close();
  });
});

const POLISH_DATE = /\d{1,2} (sty|lut|mar|kwi|maj|cze|lip|sie|wrz|paź|lis|gru)\b/;
const ENGLISH_DATE_TIME = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec) \d{4}, \d{2}:\d{2}$/;

/** Each page of the seeded world, and what shows once it has its data. */
const PAGES: { path: (w: SeededWorld) => string; ready: (page: Page) => Promise<unknown> }[] = [
  { path: () => '/', ready: (page) => page.getByTestId('account-balance').first().waitFor() },
  { path: (w) => `/accounts/${w.accountId}`, ready: (page) => page.getByRole('button', { name: 'Card hold' }).waitFor() },
  { path: () => '/webhooks', ready: (page) => page.getByRole('link', { name: 'Deliveries' }).first().waitFor() },
  { path: (w) => `/webhooks/${w.hookId}`, ready: (page) => page.getByRole('table', { name: 'Deliveries' }).waitFor() },
  { path: () => '/api-keys', ready: (page) => page.getByText('Stary klucz').waitFor() },
  { path: () => '/gocardless/requisitions', ready: (page) => page.getByText('budget-app-1').first().waitFor() },
  { path: () => '/plaid/items', ready: (page) => page.getByText('ins_sandbank').first().waitFor() },
  { path: () => '/worlds', ready: (page) => page.getByRole('table', { name: 'Child worlds' }).waitFor() },
];

async function visit(page: Page, entry: (typeof PAGES)[number]): Promise<string> {
  const where = entry.path(world);
  await page.goto(`${stack.url}/console${where}`);
  await entry.ready(page).catch(async (error: unknown) => {
    await screenshot(page, `first-look/not-ready${where.replaceAll('/', '-')}`);
    throw error;
  });
  await page.waitForLoadState('networkidle');
  return where;
}

describe('one locale', () => {
  it('shows every date, count and amount in en-GB, whatever the browser speaks', async () => {
    const firstDates: string[] = [];
    for (const locale of ['en-US', 'pl-PL']) {
      const { page } = await openPage(stack.browser, stack.url, { locale });
      await signIn(page);
      for (const entry of PAGES) {
        const where = await visit(page, entry);
        const text = (await page.locator('main').textContent()) ?? '';
        expect({ where, locale, polish: POLISH_DATE.exec(text)?.[0] }).toEqual({ where, locale, polish: undefined });
        expect({ where, locale, zloty: /\d\s?zł/.exec(text)?.[0] }).toEqual({ where, locale, zloty: undefined });
      }
      await visit(page, PAGES[1] as (typeof PAGES)[number]);
      await expect.poll(() => textOf(page, 'balance')).toBe(money(SEEDED_BALANCE));
      expect(money(SEEDED_BALANCE)).toBe('PLN\u00a012,001.00');
      await expect.poll(() => textOf(page, 'world-time')).toMatch(ENGLISH_DATE_TIME);
      const firstDate = page.getByRole('table', { name: 'Transactions' }).getByRole('row').nth(1).getByRole('cell').first();
      await expect.poll(() => firstDate.textContent()).toMatch(ENGLISH_DATE_TIME);
      firstDates.push((await firstDate.textContent()) ?? '');
      await page.context().close();
    }
    // The same transaction reads the same to both readers.
    expect(firstDates[0]).toBe(firstDates[1]);
  });
});

interface TableFindings {
  /** Words of a row's first cell drawn on more than one line. */
  broken: string[];
  /** A row's buttons and links drawn (partly) outside the screen or outside their table's scrolling box. */
  outside: string[];
  rows: number;
}

/** Every table of the page but the chart's daily table (a scrolling figure of its own). */
const inspectTables = (page: Page) =>
  page.evaluate((): TableFindings => {
    const broken: string[] = [];
    const outside: string[] = [];
    let rows = 0;
    for (const table of document.querySelectorAll('main table')) {
      if (table.closest('.chart-table')) continue;
      const box = table.closest('.table-wrap')?.getBoundingClientRect();
      for (const row of (table as HTMLTableElement).tBodies[0]?.rows ?? []) {
        rows += 1;
        const cell = row.cells[0];
        if (!cell) continue;
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          // A word ends at a space, after a hyphen (where lines may break, as in "a-client-"), or at
          // a text node's end (a URL's <wbr> after each `/`): "Kont/o/głów/ne" is four lines of one word.
          for (const word of (node.textContent ?? '').matchAll(/[^\s-]+-?/g)) {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)));
            if (lines.size > 1) broken.push(word[0]);
          }
        }
        for (const control of row.querySelectorAll('button, a[href], summary')) {
          if (!control.checkVisibility({ visibilityProperty: true })) continue; // inside a closed <details>
          const rect = control.getBoundingClientRect();
          const within = (left: number, right: number) => rect.left >= left - 0.5 && rect.right <= right + 0.5;
          if (!within(0, window.innerWidth) || (box && !within(box.left, box.right)))
            outside.push(
              `${control.textContent?.trim() || control.getAttribute('aria-label')} at ${Math.round(rect.left)}–${Math.round(rect.right)}`,
            );
        }
      }
    }
    return { broken, outside, rows };
  });

describe('tables', () => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`keep first-column words whole and every row's buttons on screen at ${viewport.width} px`, async () => {
      const { page } = await openPage(stack.browser, stack.url, { viewport });
      await signIn(page);
      let rows = 0;
      for (const entry of PAGES) {
        const where = await visit(page, entry);
        const found = await inspectTables(page);
        rows += found.rows;
        expect({ where, broken: found.broken, outside: found.outside }).toEqual({ where, broken: [], outside: [] });
      }
      // Every seeded table was looked at: accounts, transactions, webhooks, deliveries, keys, requisitions, items, snapshots, worlds.
      expect(rows).toBeGreaterThanOrEqual(10);
      await page.context().close();
    });
  }
});
