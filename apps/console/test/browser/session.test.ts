/**
 * The console's session in a browser: with one-second access tokens, a call after the token
 * lapsed is refreshed once and repeated (the user notices nothing); when the refresh is refused
 * (the session was revoked), the console drops the tokens and shows sign-in. Expiry is read from
 * the token's own `exp` claim and waited for exactly, never guessed. Refreshes go through the
 * console's cookie route (/console/session/refresh).
 */
import { startTestApp, type TestApp } from '@sandbank/api/test-helpers';
import { launchBrowser } from '@sandbank/testing/browser';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from './browser.ts';

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ LOG_LEVEL: 'silent', ACCESS_TOKEN_TTL_SECONDS: '1' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const expiryOf = (accessToken: string): number =>
  JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()).exp * 1000;

/** Resolves once the access token of this session answer has lapsed. */
async function outlive(body: { data: { accessToken: string } }): Promise<void> {
  const left = expiryOf(body.data.accessToken) - Date.now();
  if (left >= 0) await new Promise((resolve) => setTimeout(resolve, left + 5));
}

const sessionAnswer = (page: Page, path: RegExp) =>
  page.waitForResponse((response: Response) => path.test(new URL(response.url()).pathname) && response.ok());

describe('the console session', () => {
  it('refreshes a lapsed access token once and carries on; a refused refresh returns to sign-in', async () => {
    const { page } = await openPage(browser, app.url);
    const refreshes: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/console/session/refresh') refreshes.push(response.status());
    });
    const email = `session-${Date.now()}@example.com`;
    await page.goto(`${app.url}/console/register`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('correct-horse-battery');
    // The access token in memory is the one the cookie route answered when it adopted the session.
    const adopted = sessionAnswer(page, /^\/console\/session$/);
    await page.getByRole('button', { name: 'Register' }).click();
    const adoptedBody = await (await adopted).json();
    await page.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
    refreshes.length = 0; // the start-up's look for a cookie session (none: 401) is not this test's

    // The token lapses; opening an account still works, through one refresh.
    await outlive(adoptedBody);
    const refreshed = sessionAnswer(page, /^\/console\/session\/refresh$/);
    await page.getByLabel('Name').fill('After expiry');
    await page.getByRole('button', { name: 'Open account' }).click();
    const refreshedBody = await (await refreshed).json();
    await page.getByRole('link', { name: 'After expiry' }).waitFor();
    expect(refreshes).toEqual([200]);
    expect(await page.getByRole('alert').count()).toBe(0);

    // The session is revoked elsewhere: the next refresh is refused and sign-in comes back.
    const { rowCount } = await app.db.query(
      'update refresh_tokens set revoked_at = now() where user_id = (select id from users where email = $1)',
      [email],
    );
    expect(rowCount).toBeGreaterThan(0);
    await outlive(refreshedBody);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(refreshes).toEqual([200, 401]);
    await page.context().close();
  });
});
