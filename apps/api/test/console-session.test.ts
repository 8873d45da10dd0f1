/**
 * The console's cookie session route (src/http/console-session.ts) over real HTTP: adopting a
 * session spends the token the page saw and sets the HttpOnly, SameSite=Strict cookie scoped to
 * /console/session (Secure when the service is served over TLS); refresh rotates it; logout
 * revokes the family and clears the cookie; calls without the CSRF header, from another origin or
 * with a bad body are refused and change nothing. (The browser side: apps/console/test/browser/reload.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
let tls: TestApp;
beforeAll(async () => {
  [app, tls] = await Promise.all([startTestApp(), startTestApp({ PUBLIC_URL: 'https://sandbank.example' })]);
});
afterAll(() => Promise.all([app.close(), tls.close()]));

const CSRF = { 'x-sandbank-console': '1', 'content-type': 'application/json' };

async function registered(on: TestApp): Promise<string> {
  const res = await on.call('POST', '/v1/auth/register', {
    body: { email: `cookie-${Math.random().toString(36).slice(2)}@example.com`, password: 'password-123' },
  });
  return res.body.data.refreshToken;
}

const post = (on: TestApp, path: string, init: { headers?: Record<string, string>; body?: unknown } = {}) =>
  fetch(`${on.url}/console/session${path}`, {
    method: 'POST',
    headers: init.headers ?? CSRF,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

const cookieValue = (res: Response) => /sandbank_console_refresh=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];

describe('the console session cookie', () => {
  it('adopts a session into an HttpOnly, Strict cookie on /console/session, refreshes it, and logs out', async () => {
    const seen = await registered(app);
    const adopted = await post(app, '', { body: { refreshToken: seen } });
    expect(adopted.status).toBe(200);
    const body = (await adopted.json()) as { data: Record<string, unknown> };
    expect(body.data).toEqual({ accessToken: expect.any(String), tokenType: 'Bearer', expiresIn: 900 });
    expect(body.data.refreshToken).toBeUndefined();
    const setCookie = adopted.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/Path=\/console\/session/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).not.toMatch(/Secure/);
    const first = cookieValue(adopted);
    expect(first).toBeTruthy();
    expect(first).not.toBe(seen);
    // The token the page saw is spent.
    expect((await app.call('POST', '/v1/auth/refresh', { body: { refreshToken: seen } })).status).toBe(401);
  });

  it('rotates on refresh and revokes on logout', async () => {
    const adopted = await post(app, '', { body: { refreshToken: await registered(app) } });
    const first = cookieValue(adopted);
    const refreshed = await post(app, '/refresh', { headers: { ...CSRF, cookie: `sandbank_console_refresh=${first}` } });
    expect(refreshed.status).toBe(200);
    const second = cookieValue(refreshed);
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);

    const out = await post(app, '/logout', { headers: { ...CSRF, cookie: `sandbank_console_refresh=${second}` } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/sandbank_console_refresh=;.*Expires=Thu, 01 Jan 1970/);
    const after = await post(app, '/refresh', { headers: { ...CSRF, cookie: `sandbank_console_refresh=${second}` } });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
  });

  it('answers a refresh without a cookie as the signed-out state, 200 { data: null }, not an error', async () => {
    const none = await post(app, '/refresh');
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ data: null });
    expect(none.headers.get('set-cookie')).toBeNull();
    // The CSRF guard still comes first.
    expect((await post(app, '/refresh', { headers: { 'content-type': 'application/json' } })).status).toBe(403);
  });

  it('refuses calls without the header, from another origin, or with a bad body, spending nothing', async () => {
    const seen = await registered(app);
    const bare = await post(app, '', { headers: { 'content-type': 'application/json' }, body: { refreshToken: seen } });
    expect(bare.status).toBe(403);
    const foreign = await post(app, '', { headers: { ...CSRF, origin: 'https://evil.example' }, body: { refreshToken: seen } });
    expect(foreign.status).toBe(403);
    const bad = await post(app, '', { body: { refreshToken: seen, extra: 1 } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('VALIDATION_ERROR');
    // None of them spent the token.
    expect((await post(app, '', { body: { refreshToken: seen } })).status).toBe(200);
  });

  it('marks the cookie Secure when the service is served over TLS', async () => {
    const adopted = await post(tls, '', { body: { refreshToken: await registered(tls) } });
    expect(adopted.status).toBe(200);
    expect(adopted.headers.get('set-cookie')).toMatch(/; Secure/);
  });
});
