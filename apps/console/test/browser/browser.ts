/**
 * The browser side of the console tests: Debian's Chromium driven by playwright-core (as the
 * /docs test does), a page that records CSP violations, console errors and requests to other
 * hosts, axe-core run inside the page, and screenshots of each page.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { signIn } from './pages.ts';
import type { AppStack } from './stack.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Where screenshots go: SCREENSHOT_DIR (docs/console for the pictures in docs/reference/console.md) or a scratch folder. */
export const SCREENSHOT_DIR = path.resolve(
  process.env.SCREENSHOT_DIR ?? path.join(import.meta.dirname, '../../../../.data/console-screenshots'),
);

export interface WatchedPage {
  page: Page;
  /** Page errors and console errors, and requests that left the origin (CSP violations are read from the page). */
  problems(): { errors: string[]; outside: string[] };
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** The browser's language (default en-GB, the console's own); the console shows en-GB whatever it is. */
  locale?: string;
  timezoneId?: string;
}

export async function openPage(browser: Browser, origin: string, options: PageOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 860 },
    colorScheme: options.colorScheme ?? 'light',
    locale: options.locale ?? 'en-GB',
    timezoneId: options.timezoneId ?? 'Europe/Warsaw',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const outside: string[] = [];
  page.on('console', (message) => {
    // A failed call's 4xx is logged by Chromium as a console error; the UI shows it, so it is not a fault.
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin === origin) return route.continue();
    outside.push(url.href);
    return route.abort();
  });
  await page.addInitScript({
    content: `window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
      });`,
  });
  return {
    page,
    problems: () => ({ errors: [...errors], outside: [...outside] }),
  };
}

/** No CSP violation so far, no page or console error, nothing fetched from another host. */
export async function expectClean(watched: WatchedPage): Promise<void> {
  const csp = await watched.page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  const { errors, outside } = watched.problems();
  expect({ csp, errors, outside }).toEqual({ csp: [], errors: [], outside: [] });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core inside the page (evaluated over the DevTools protocol, so the page's CSP, which
 * rightly refuses inline scripts, does not apply to it): no serious or critical violation.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((n) => ({ target: n.target })),
    }));
  });
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious, `axe on ${name}`).toEqual([]);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  mkdirSync(path.dirname(file), { recursive: true });
  // The whole page as one tall viewport (a `fullPage` capture misplaces the sticky sidebar).
  const viewport = page.viewportSize() ?? { width: 1280, height: 860 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
  await page.screenshot({ path: file });
  await page.setViewportSize(viewport);
}

/** The page is quiet (no request in flight), accessible, within its CSP, and photographed. */
export async function checkPage(watched: WatchedPage, name: string): Promise<void> {
  await watched.page.waitForLoadState('networkidle');
  await expectAccessible(watched.page, name);
  await expectClean(watched);
  await screenshot(watched.page, name);
}

/** How wide the document is: no wider than the viewport means nothing scrolls sideways. */
export const documentWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

export interface PhonePage {
  /** The path under /console. */
  path: string;
  /** The photograph's name (light scheme): `phone-<name>`. */
  name: string;
  /** What shows once the page has its data (and anything to do on it before it is checked). */
  ready: (page: Page, colorScheme: 'light' | 'dark') => Promise<unknown>;
}

/**
 * Signed in as this user on a phone (390 × 844), light and dark: each page quiet, no wider than the
 * screen, accessible and within its CSP, and photographed in the light scheme.
 */
export async function checkOnPhone(stack: AppStack, email: string, pages: PhonePage[]): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    const watched = await openPage(stack.browser, stack.url, { viewport: { width: 390, height: 844 }, colorScheme });
    const { page } = watched;
    await signIn(page, stack.url, email);
    for (const { path, name, ready } of pages) {
      await page.goto(`${stack.url}/console${path}`);
      await ready(page, colorScheme);
      await page.waitForLoadState('networkidle');
      expect({ path, width: await documentWidth(page) }).toEqual({ path, width: 390 });
      await expectAccessible(page, `${path} at 390 px, ${colorScheme}`);
      if (colorScheme === 'light') await screenshot(page, `phone-${name}`);
    }
    await expectClean(watched);
    await page.context().close();
  }
}

const pln = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'PLN' });
/** Minor units as the console shows them (en-GB: "PLN 1,234.56"). */
export const money = (minor: number) => pln.format(minor / 100);

/** The text of the first element with this test id. */
export const textOf = (page: Page, testId: string) => page.getByTestId(testId).first().textContent();

/**
 * Each account's checkbox starts its account's own line (never wrapped onto the line before), and the
 * lines are stacked one under another.
 */
export async function expectOnePerLine(page: Page, count: number, control: 'checkbox' | 'radio' = 'checkbox'): Promise<void> {
  const rows = page.getByRole('listitem').filter({ has: page.getByRole(control) });
  await expect.poll(() => rows.count()).toBe(count);
  let bottom = 0;
  for (let index = 0; index < count; index += 1) {
    const row = await rows.nth(index).boundingBox();
    const box = await rows.nth(index).getByRole(control).boundingBox();
    if (!row || !box) throw new Error(`account ${index} is not shown`);
    expect(row.y).toBeGreaterThanOrEqual(bottom);
    expect(box.x - row.x).toBeLessThan(8);
    expect(box.y).toBeGreaterThanOrEqual(row.y);
    expect(box.y + box.height).toBeLessThanOrEqual(row.y + row.height);
    bottom = row.y + row.height;
  }
}
