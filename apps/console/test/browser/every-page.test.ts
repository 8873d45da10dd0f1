/**
 * Every page of the console, each in its own address, at a desk (1280 × 900) and on a phone
 * (390 × 844), each in light and dark: no wider than the screen, the world clock shown, axe-core finding
 * no serious or critical violation, the CSP refusing nothing and nothing leaving the origin.
 * Each is photographed at both sizes (light) into `pages/` of the screenshot folder:
 * `pnpm --filter @sandbank/console screenshots` refreshes docs/console/pages.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentWidth, expectAccessible, openPage, screenshot } from './browser.ts';
import { signIn } from './pages.ts';
import { type SeededWorld, seedWideWorld } from './seed.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack();
const email = `every-page-${Date.now()}@example.com`;
let world: SeededWorld;
beforeAll(async () => {
  world = await seedWideWorld(stack, email);
});

interface ConsolePage {
  /** The picture's name in docs/console/pages. */
  name: string;
  path: (world: SeededWorld) => string;
  /** What shows once the page has its data. */
  ready: (page: Page) => Promise<unknown>;
  signedOut?: true;
  /** A bank's page (the consent page): no console frame around it, so no world clock. */
  bankPage?: true;
}

const heading = (name: string) => (page: Page) => page.getByRole('heading', { name, exact: true }).first().waitFor();

const PAGES: ConsolePage[] = [
  { name: 'login', path: () => '/login', ready: heading('Sign in'), signedOut: true },
  { name: 'register', path: () => '/register', ready: heading('Create your sandbox'), signedOut: true },
  { name: 'accounts', path: () => '/', ready: heading('Accounts') },
  {
    name: 'account',
    path: (w) => `/accounts/${w.accountId}`,
    ready: (page) => page.getByRole('button', { name: 'Card hold' }).waitFor(),
  },
  {
    name: 'transaction',
    path: (w) => `/accounts/${w.accountId}?tx=${w.salaryId}`,
    ready: (page) => page.getByRole('region', { name: 'Transaction', exact: true }).getByText('Reversed by').first().waitFor(),
  },
  { name: 'payments', path: () => '/payments', ready: heading('Payments') },
  { name: 'simulate', path: () => '/simulate', ready: heading('Simulate') },
  { name: 'time', path: () => '/time', ready: heading('Time and scenarios') },
  // The event log keeps its stream open (never network-idle): its list is what it waits for.
  { name: 'events', path: () => '/events', ready: (page) => page.getByRole('list', { name: 'Events' }).waitFor() },
  {
    name: 'webhooks',
    path: () => '/webhooks',
    ready: (page) => page.getByRole('link', { name: 'Deliveries' }).first().waitFor(),
  },
  { name: 'webhook', path: (w) => `/webhooks/${w.hookId}`, ready: heading('Deliveries') },
  { name: 'api-keys', path: () => '/api-keys', ready: (page) => page.getByText('Stary klucz').waitFor() },
  {
    name: 'requisitions',
    path: () => '/gocardless/requisitions',
    ready: (page) => page.getByText('budget-app-1').first().waitFor(),
  },
  {
    name: 'enablebanking',
    path: () => '/enablebanking',
    ready: (page) => page.getByText('Spółdzielnia Mieszkaniowa „Przyszłość” w Warszawie').first().waitFor(),
  },
  { name: 'plaid-items', path: () => '/plaid/items', ready: (page) => page.getByText('ins_sandbank').first().waitFor() },
  { name: 'worlds', path: () => '/worlds', ready: (page) => page.getByText('Rodzina, rok historii').first().waitFor() },
  { name: 'snapshot', path: (w) => `/worlds/snapshots/${w.snapshotId}`, ready: heading('Rodzina, rok historii') },
  // Last: opening the consent page moves the requisition on (GoCardless's "giving consent" step).
  {
    name: 'consent',
    path: (w) => `/gocardless/requisitions/${w.requisitionId}`,
    ready: heading('Connect your accounts'),
    bankPage: true,
  },
];

const SIZES = [
  { label: 'desk', viewport: { width: 1280, height: 900 }, schemes: ['light', 'dark'] as const, prefix: '' },
  { label: 'phone', viewport: { width: 390, height: 844 }, schemes: ['light', 'dark'] as const, prefix: 'phone-' },
];

describe('every page', () => {
  for (const size of SIZES) {
    for (const colorScheme of size.schemes) {
      it(`fits ${size.viewport.width} px (${colorScheme}), shows the world clock and is accessible`, async () => {
        const watched = await openPage(stack.browser, stack.url, { viewport: size.viewport, colorScheme });
        const { page } = watched;
        let signedIn = false;
        for (const consolePage of PAGES) {
          if (!consolePage.signedOut && !signedIn) {
            await signIn(page, stack.url, email);
            signedIn = true;
          }
          const where = consolePage.path(world);
          await page.goto(`${stack.url}/console${where}`);
          await consolePage.ready(page);
          if (consolePage.name !== 'events') await page.waitForLoadState('networkidle');
          const label = `${where} at ${size.viewport.width} px, ${colorScheme}`;
          expect({ label, width: await documentWidth(page) }).toEqual({
            label,
            width: size.viewport.width,
          });
          if (!consolePage.signedOut && !consolePage.bankPage) await page.getByTestId('world-clock').waitFor();
          await expectAccessible(page, label);
          if (colorScheme === 'light') await screenshot(page, path.join('pages', `${size.prefix}${consolePage.name}`));
        }
        expect(watched.problems()).toEqual({ errors: [], outside: [] });
        await page.context().close();
      });
    }
  }
});
