/**
 * The guard's buckets after calls that never reach a verdict (issue 27 review). A refused call must
 * not count, and a call given back must not leave the bucket over its size with no block behind it
 * (rate-limiter-flexible's `consume` counted refusals, and the bucket then stayed full for a day).
 * A bucket full only of guesses still being checked is not a block: Retry-After is 1 s, not 15 min.
 */

import { pause } from '@sandbank/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0).reverse()) await app.close();
});

describe.each(['memory', 'postgres'] as const)('the guard after calls without a verdict (%s store)', (store) => {
  it('close-account calls refused before any password check cannot lock the user', async () => {
    const app = await startTestApp({ RATE_LIMIT_STORE: store, LOGIN_MAX_CONSECUTIVE_FAILS: '3', LOGIN_BLOCK_SECONDS: '2' });
    apps.push(app);
    const user = await app.createUser();
    const account = (await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Spare' } })).body.data;
    const close = (name: string, password: string) =>
      app.call('POST', `/v1/accounts/${account.id}/close`, { token: user.accessToken, body: { name, password } });
    // Not one password is checked: every call has the wrong name (422 before the password).
    const burst = await Promise.all(Array.from({ length: 30 }, () => close('Not the name', user.password)));
    expect(burst.map((res) => res.body.code)).toContain('CONFIRMATION_MISMATCH');
    // Refused ones (if any) say: retry after a second, not a block's length.
    for (const res of burst.filter((r) => r.status === 429)) expect(res.headers.get('retry-after')).toBe('1');
    await pause(1_100, "the refusals' Retry-After (1 s) passes");
    // Zero wrong passwords: the right name and password close it.
    const right = await close('Spare', user.password);
    expect([right.status, right.body.code, right.headers.get('retry-after')]).toEqual([200, undefined, null]);
  }, 30_000);

  it('parallel right-password logins of one user are never told to come back later than in 1 s', async () => {
    const app = await startTestApp({ RATE_LIMIT_STORE: store, LOGIN_MAX_CONSECUTIVE_FAILS: '10' });
    apps.push(app);
    const user = await app.createUser();
    const burst = await Promise.all(
      Array.from({ length: 30 }, () =>
        app.call('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } }),
      ),
    );
    const refused = burst.filter((res) => res.status === 429);
    const retryAfter = refused.map((res) => Number(res.headers.get('retry-after')));
    console.log(`${store}: ${30 - refused.length}/30 logged in, ${refused.length} told Retry-After 1`);
    expect(burst.every((res) => res.status === 200 || res.status === 429)).toBe(true);
    // Callers wait up to 2 s for a slot: most get in; none is told to come back in 15 minutes.
    expect(refused.length).toBeLessThan(20);
    expect(Math.max(0, ...retryAfter)).toBeLessThanOrEqual(1);
    // Right after, one more login is not refused (nothing was left in the bucket).
    expect((await app.call('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200);
  }, 30_000);
});
