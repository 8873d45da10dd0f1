/**
 * Every IP-based limit keys an IPv6 client on its /64 (what a single VPS or home line gets), so one
 * host cannot take 2^64 fresh buckets (issue 27 review). Simulated with a trusted proxy's
 * X-Forwarded-For; in production the same happens with the socket address.
 */
import { afterEach, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

const inOne64 = (i: number) => `2001:db8:1:2:${i.toString(16)}::${(i * 7).toString(16)}`;

it.each(['memory', 'postgres'] as const)(
  'one /64 gets no more than LOGIN_MAX_CONSECUTIVE_FAILS guesses at one e-mail (%s store)',
  async (store) => {
    const app = await startTestApp({
      RATE_LIMIT_STORE: store,
      TRUST_PROXY: 'loopback',
      LOGIN_MAX_CONSECUTIVE_FAILS: '3',
      LOGIN_MAX_FAILS_PER_IP_PER_DAY: '5',
    });
    apps.push(app);
    const user = await app.createUser();
    const statuses: number[] = [];
    for (let i = 1; i <= 12; i++) {
      const res = await app.call('POST', '/v1/auth/login', {
        body: { email: user.email, password: `wrong-password-${i}` },
        headers: { 'x-forwarded-for': inOne64(i) },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, ...Array(9).fill(429)]);
    // Another /64 is another client.
    const other = await app.call('POST', '/v1/auth/login', {
      body: { email: user.email, password: user.password },
      headers: { 'x-forwarded-for': '2001:db8:1:3::1' },
    });
    expect(other.status).toBe(200);
  },
  30_000,
);

it('the per-IP request limit counts a /64 as one client, an IPv4-mapped address as its IPv4', async () => {
  const app = await startTestApp({ RATE_LIMIT_IP: '3/60', TRUST_PROXY: 'loopback' });
  apps.push(app);
  const get = (ip: string) => app.call('GET', '/openapi.json', { headers: { 'x-forwarded-for': ip } });
  const statuses: number[] = [];
  for (let i = 1; i <= 4; i++) statuses.push((await get(inOne64(i))).status);
  expect(statuses).toEqual([200, 200, 200, 429]);
  expect((await get('2001:db8:1:3::1')).status).toBe(200);
  expect((await get('203.0.113.9')).status).toBe(200);
  expect((await get('203.0.113.9')).status).toBe(200);
  expect((await get('::ffff:203.0.113.9')).status).toBe(200);
  expect((await get('::ffff:203.0.113.9')).status).toBe(429);
});
