/**
 * The console's session across reloads: the refresh token in an HttpOnly, SameSite=Strict cookie
 * scoped to /console/session (never readable from the page), the access token in memory. A
 * reload keeps the session and the page; sign-in returns to the page asked for; sign-out clears
 * the cookie, and a reload then shows sign-in. The cookie route refuses calls without the CSRF
 * header or from another origin.
 */
import { startTestApp, type TestApp } from '@sandbank/api/test-helpers';
import { launchBrowser } from '@sandbank/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectClean, openPage } from './browser.ts';

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ LOG_LEVEL: 'silent' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const PASSWORD = 'correct-horse-battery';

async function register(page: Page, email: string): Promise<void> {
  await page.goto(`${app.url}/console/register`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await page.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
}

describe('the console session across reloads', () => {
  it('keeps the session and the page over a reload; the cookie is HttpOnly, Strict and scoped; sign-out ends it', async () => {
    const watched = await openPage(browser, app.url);
    const { page } = watched;
    await register(page, `reload-${Date.now()}@example.com`);
    await page.getByLabel('Name').fill('Kept over reloads');
    await page.getByRole('button', { name: 'Open account' }).click();
    await page.getByRole('link', { name: 'Kept over reloads' }).click();
    await page.getByRole('heading', { name: 'Kept over reloads' }).waitFor();
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
    const { page } = await openPage(browser, app.url);
    const email = `next-${Date.now()}@example.com`;
    await register(page, email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    await page.goto(`${app.url}/console/webhooks?from=link`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/webhooks?from=link');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/console/webhooks?from=link');
    await page.context().close();
  });

  it('refuses the cookie routes without the CSRF header or from another origin', async () => {
    const { page } = await openPage(browser, app.url);
    await register(page, `csrf-${Date.now()}@example.com`);
    const [cookie] = await page.context().cookies();
    const jar = `sandbank_console_refresh=${cookie?.value}`;
    const refresh = (headers: Record<string, string>) =>
      fetch(`${app.url}/console/session/refresh`, { method: 'POST', headers: { cookie: jar, ...headers } });

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
