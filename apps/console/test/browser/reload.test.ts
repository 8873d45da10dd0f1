/**
 * The console's session across reloads: the refresh token in an HttpOnly, SameSite=Strict cookie
 * scoped to /console/session (never readable from the page), the access token in memory. A
 * reload keeps the session and the page; sign-in returns to the page asked for; sign-out clears
 * the cookie, and a reload then shows sign-in. The cookie route refuses calls without the CSRF
 * header or from another origin.
 */
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectClean, openPage } from './browser.ts';
import { openAccountPage, register, submitSignIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack({ worker: false });

describe('the console session across reloads', () => {
  it('keeps the session and the page over a reload; the cookie is HttpOnly, Strict and scoped; sign-out ends it', async () => {
    const watched = await openPage(stack.browser, stack.url);
    const { page } = watched;
    await register(page, stack.url, `reload-${Date.now()}@example.com`);
    await openAccountPage(page, 'Kept over reloads');
    const accountPath = new URL(page.url()).pathname;
    expect(accountPath).toMatch(/^\/console\/accounts\/[0-9a-f-]{36}$/);

    const cookies = await page.context().cookies();
    expect(cookies.map((c) => c.name)).toEqual(['sandbank_console_refresh']);
    expect(cookies[0]).toMatchObject({ path: '/console/session', httpOnly: true, sameSite: 'Strict', secure: false });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).toBe('{}{}');

    await page.reload();
    await page.getByRole('heading', { name: 'Kept over reloads' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(accountPath);
    await page.reload();
    await page.getByRole('heading', { name: 'Kept over reloads' }).waitFor();
    await expectAccessible(page, 'account after reload');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.context().cookies()).toEqual([]);
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expectClean(watched);
    await page.context().close();
  });

  it('returns to the page (and its query) asked for before signing in', async () => {
    const { page } = await openPage(stack.browser, stack.url);
    const email = `next-${Date.now()}@example.com`;
    await register(page, stack.url, email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    await page.goto(`${stack.url}/console/webhooks?from=link`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/webhooks?from=link');
    await submitSignIn(page, email);
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/console/webhooks?from=link');
    await page.context().close();
  });

  it('refuses the cookie routes without the CSRF header or from another origin', async () => {
    const { page } = await openPage(stack.browser, stack.url);
    await register(page, stack.url, `csrf-${Date.now()}@example.com`);
    const [cookie] = await page.context().cookies();
    const jar = `sandbank_console_refresh=${cookie?.value}`;
    const refresh = (headers: Record<string, string>) =>
      fetch(`${stack.url}/console/session/refresh`, { method: 'POST', headers: { cookie: jar, ...headers } });

    const bare = await refresh({});
    expect(bare.status).toBe(403);
    expect((await bare.json()).code).toBe('FORBIDDEN');
    const foreign = await refresh({ 'x-sandbank-console': '1', origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    // Neither refusal spent the token: the page's own refresh (a reload) still works.
    await page.reload();
    await page.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
    await page.context().close();
  });
});
