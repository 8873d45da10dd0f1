/**
 * Error boundaries: a page that throws while rendering (here, because an answer came back in a
 * shape it cannot show) is replaced by what failed and a way back; the navigation keeps working,
 * leaving the page resets it, and Try again renders it afresh once the answer is sound.
 * The broken answer is the one fault injected at the network (Playwright's `route`); everything
 * else is the real API.
 */
import { describe, expect, it } from 'vitest';
import { registerUser } from './api.ts';
import { expectAccessible, openPage } from './browser.ts';
import { signIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack({ worker: false });

describe('error boundaries', () => {
  it('keeps the frame when a page fails to render, and recovers by navigation or Try again', async () => {
    const email = `boundary-${Date.now()}@example.com`;
    await registerUser(stack.url, email);
    const { page, problems } = await openPage(stack.browser, stack.url, { viewport: { width: 1280, height: 900 } });
    await signIn(page, stack.url, email);

    // The account list now answers with an entry the page cannot render (null where an account belongs).
    await page.route('**/trpc/accounts.listAccounts**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ result: { data: { data: [null], page: 1, limit: 20, total: 1 } } }),
      }),
    );
    await page.goto(`${stack.url}/console/`);
    const failure = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'This page could not be shown' }) });
    await failure.waitFor();
    // Focus moves to the failure, the frame (navigation, who is signed in) is still there.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('failure-title');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await expectAccessible(page, 'a failed page');

    // Leaving the page resets its boundary: another page renders normally.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Event log' }).click();
    await page.getByRole('heading', { name: 'Event log', exact: true }).waitFor();
    expect(await failure.count()).toBe(0);

    // Back on the broken page it fails again; once the answer is sound, Try again shows it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).click();
    await failure.waitFor();
    await page.unroute('**/trpc/accounts.listAccounts**');
    await failure.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Open an account' }).waitFor();
    expect(await failure.count()).toBe(0);
    // What React reported went to the browser's console, not to a blank screen.
    expect(problems().errors.some((line) => line.includes('a page failed to render'))).toBe(true);
    await page.context().close();
  });
});
