/**
 * The console's session in a browser: with one-second access tokens, a call after the token
 * lapsed is refreshed once and repeated (the user notices nothing); when the refresh is refused
 * (the session was revoked), the console drops the tokens and shows sign-in. Expiry is read from
 * the token's own `exp` claim and waited for exactly, never guessed. Refreshes go through the
 * console's cookie route (/console/session/refresh).
 */
import { pause } from '@sandbank/testing';
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from './api.ts';
import { openPage } from './browser.ts';
import { setUpConsoleStack } from './stack.ts';

/** Short, so the test outlives tokens; long enough that one page's calls fit in one token's life on a loaded machine. */
const TTL_SECONDS = 3;

const stack = setUpConsoleStack({ worker: false, env: { ACCESS_TOKEN_TTL_SECONDS: String(TTL_SECONDS) } });

const expiryOf = (accessToken: string): number =>
  JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()).exp * 1000;

/** Resolves once the access token of this session answer has lapsed. */
async function outlive(body: { data: { accessToken: string } }): Promise<void> {
  const left = expiryOf(body.data.accessToken) - Date.now();
  if (left >= 0) await pause(left + 5, 'the access token lapses on the wall clock');
}

const sessionAnswer = (page: Page, path: RegExp) =>
  page.waitForResponse((response: Response) => path.test(new URL(response.url()).pathname) && response.ok());

describe('the console session', () => {
  it('refreshes a lapsed access token once and carries on; a refused refresh returns to sign-in', async () => {
    const { page } = await openPage(stack.browser, stack.url);
    const refreshes: number[] = [];
    // The newest access token the console was given by a refresh (what the next lapse is measured from).
    let latest: Promise<{ data: { accessToken: string } }> | undefined;
    page.on('response', (response) => {
      if (new URL(response.url()).pathname !== '/console/session/refresh') return;
      refreshes.push(response.status());
      if (response.ok()) latest = response.json();
    });
    const email = `session-${Date.now()}@example.com`;
    await page.goto(`${stack.url}/console/register`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    // The access token in memory is the one the cookie route answered when it adopted the session.
    const adopted = sessionAnswer(page, /^\/console\/session$/);
    await page.getByRole('button', { name: 'Register' }).click();
    const adoptedBody = await (await adopted).json();
    await page.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
    refreshes.length = 0; // the start-up's look for a cookie session (none: 200, no data) is not this test's

    // The token lapses; opening an account still works, through one refresh.
    await outlive(adoptedBody);
    const lapsedAt = Date.now();
    const refreshed = sessionAnswer(page, /^\/console\/session\/refresh$/);
    await page.getByLabel('Name').fill('After expiry');
    await page.getByRole('button', { name: 'Open account' }).click();
    await refreshed;
    await page.getByRole('link', { name: 'After expiry' }).waitFor();
    // Once per lapse: the calls that found the token lapsed share one refresh (a slow machine may
    // see the next token lapse too before the page is done, and refresh once more for it).
    const lifetimes = 1 + Math.floor((Date.now() - lapsedAt) / (TTL_SECONDS * 1000));
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(refreshes.length).toBeLessThanOrEqual(lifetimes);
    expect(refreshes.every((status) => status === 200)).toBe(true);
    const before = refreshes.length;
    expect(await page.getByRole('alert').count()).toBe(0);

    // The session is revoked elsewhere: the next refresh is refused and sign-in comes back.
    const { rowCount } = await stack.app.db.query(
      'update refresh_tokens set revoked_at = now() where user_id = (select id from users where email = $1)',
      [email],
    );
    expect(rowCount).toBeGreaterThan(0);
    if (!latest) throw new Error('no refresh was answered');
    await outlive(await latest);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(refreshes.slice(before)).toEqual([401]);
    await page.context().close();
  });
});
