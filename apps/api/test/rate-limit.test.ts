import { loadConfig } from '@sandbank/config';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

const apps: TestApp[] = [];
async function start(env: Record<string, string>, options = {}): Promise<TestApp> {
  const app = await startTestApp(env, options);
  apps.push(app);
  return app;
}
afterEach(async () => {
  // The second process shares the first one's database: close it first.
  for (const app of apps.splice(0).reverse()) await app.close();
});

const login = (app: TestApp, email: string, password: string, headers: Record<string, string> = {}) =>
  app.call('POST', '/v1/auth/login', { body: { email, password }, headers });

describe('per-IP limit on every route', () => {
  it('answers 429 in the error contract after the configured count, with Retry-After and RateLimit-*', async () => {
    const app = await start({ RATE_LIMIT_IP: '3/60' });
    for (const remaining of [2, 1, 0]) {
      const res = await app.call('GET', '/openapi.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(remaining));
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    const refused = await app.call('GET', '/v1/auth/me');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      traceId: refused.headers.get('x-request-id'),
      code: 'RATE_LIMITED',
      message: expect.stringContaining('retry after'),
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    // Liveness probes are never limited (and never touch the store).
    expect((await app.call('GET', '/healthz')).status).toBe(200);
  });

  it('ignores a spoofed X-Forwarded-For without TRUST_PROXY', async () => {
    const app = await start({ RATE_LIMIT_IP: '3/60' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await app.call('GET', '/openapi.json', { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('honours X-Forwarded-For from a trusted proxy (TRUST_PROXY=loopback)', async () => {
    const app = await start({ RATE_LIMIT_IP: '3/60', TRUST_PROXY: 'loopback' });
    for (let i = 0; i < 5; i++) {
      const res = await app.call('GET', '/openapi.json', { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBe('2');
    }
  });

  it('can be turned off for benchmarks (RATE_LIMIT_ENABLED=false)', async () => {
    const app = await start({ RATE_LIMIT_ENABLED: 'false', RATE_LIMIT_IP: '1/60', RATE_LIMIT_AUTH: '1/60' });
    for (let i = 0; i < 3; i++) {
      const res = await app.call('GET', '/openapi.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
      expect((await login(app, 'nobody@example.com', 'wrong-password')).status).toBe(401);
    }
  });
});

describe('register and login limits', () => {
  it('limits register and login together per IP, over REST and tRPC alike', async () => {
    const app = await start({ RATE_LIMIT_AUTH: '2/60' });
    expect((await login(app, 'nobody@example.com', 'wrong-password')).status).toBe(401);
    const registered = await app.call('POST', '/v1/auth/register', {
      body: { email: 'a@example.com', password: 'password-123' },
    });
    expect(registered.status).toBe(201);
    expect(registered.headers.get('ratelimit-limit')).toBe('2');
    expect(registered.headers.get('ratelimit-remaining')).toBe('0');

    const rest = await login(app, 'a@example.com', 'password-123');
    expect(rest.status).toBe(429);
    expect(rest.body.code).toBe('RATE_LIMITED');
    expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);

    const trpc = await app.call('POST', '/trpc/auth.login', { body: { email: 'a@example.com', password: 'password-123' } });
    expect(trpc.status).toBe(429);
    expect(trpc.body.error.data).toMatchObject({ code: 'RATE_LIMITED', traceId: trpc.headers.get('x-request-id') });
    expect(trpc.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('login brute-force guard', () => {
  it('with the default limits, lets a test suite register 100 users a minute from one address while failed logins stay guarded', async () => {
    const defaults = loadConfig({ NODE_ENV: 'test' });
    expect(defaults.rateLimits.auth).toMatchObject({ points: 120, duration: 60 });
    // The defaults, spelled out: the test app otherwise runs with limits far above them.
    const app = await start({
      RATE_LIMIT_IP: '600/60',
      RATE_LIMIT_AUTH: '120/60',
      LOGIN_MAX_CONSECUTIVE_FAILS: String(defaults.rateLimits.login.maxConsecutiveFails),
      LOGIN_MAX_FAILS_PER_IP_PER_DAY: String(defaults.rateLimits.login.maxFailsPerIpPerDay),
    });
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        app
          .call('POST', '/v1/auth/register', { body: { email: `suite-${i}@example.com`, password: 'password-123' } })
          .then((res) => res.status),
      ),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(100);
    for (let i = 0; i < defaults.rateLimits.login.maxConsecutiveFails; i++) {
      expect((await login(app, 'suite-0@example.com', 'wrong-password')).status).toBe(401);
    }
    expect((await login(app, 'suite-0@example.com', 'password-123')).status).toBe(429);
  }, 60_000);

  it('blocks an e-mail+IP after consecutive failures, even with the right password, and not other e-mails', async () => {
    const app = await start({ LOGIN_MAX_CONSECUTIVE_FAILS: '3', LOGIN_BLOCK_SECONDS: '120' });
    const victim = await app.createUser();
    const other = await app.createUser();
    for (let i = 0; i < 3; i++) expect((await login(app, victim.email, 'wrong-password')).status).toBe(401);

    const blocked = await login(app, victim.email, victim.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(100);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(120);
    // The same e-mail in another case is the same e-mail.
    expect((await login(app, victim.email.toUpperCase(), victim.password)).status).toBe(429);
    expect((await login(app, other.email, other.password)).status).toBe(200);
  });

  it('resets the consecutive count on a successful login', async () => {
    const app = await start({ LOGIN_MAX_CONSECUTIVE_FAILS: '3' });
    const user = await app.createUser();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 2; i++) expect((await login(app, user.email, 'wrong-password')).status).toBe(401);
      expect((await login(app, user.email, user.password)).status).toBe(200);
    }
    for (let i = 0; i < 3; i++) expect((await login(app, user.email, 'wrong-password')).status).toBe(401);
    expect((await login(app, user.email, user.password)).status).toBe(429);
  });

  it('blocks an IP after too many failures in a day, whatever the e-mail', async () => {
    const app = await start({ LOGIN_MAX_FAILS_PER_IP_PER_DAY: '4' });
    for (let i = 0; i < 4; i++) expect((await login(app, `guess-${i}@example.com`, 'wrong-password')).status).toBe(401);
    const user = await app.createUser();
    const blocked = await login(app, user.email, user.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(86_000);
  });
});

describe('password confirmations are guarded like logins', () => {
  it('closing an account blocks after consecutive wrong passwords, so it is no password oracle', async () => {
    const app = await start({ LOGIN_MAX_CONSECUTIVE_FAILS: '3', LOGIN_BLOCK_SECONDS: '120' });
    const user = await app.createUser();
    const account = (await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Spare' } })).body.data;
    const close = (password: string) =>
      app.call('POST', `/v1/accounts/${account.id}/close`, { token: user.accessToken, body: { name: 'Spare', password } });
    for (let i = 0; i < 3; i++) expect((await close('wrong-password')).body.code).toBe('INVALID_PASSWORD');
    const blocked = await close(user.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(100);
  });
});

describe('one call per request on /trpc', () => {
  it('refuses batches, which would slip many calls past the per-IP limit', async () => {
    const app = await start({});
    const user = await app.createUser();
    const res = await app.call('GET', '/trpc/auth.me,auth.me?batch=1&input=%7B%7D', { token: user.accessToken });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain(user.email);
  });

  it('answers 415 in the contract for a body that is not JSON', async () => {
    const app = await start({});
    const res = await app.call('POST', '/trpc/auth.login', {
      body: 'email=a%40b.co',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', traceId: res.headers.get('x-request-id') });
  });
});

describe('per-API-key limit on the pull endpoint', () => {
  it('refuses a key over RATE_LIMIT_API_KEY with 429 and headers, while another key still reads', async () => {
    const app = await start({ RATE_LIMIT_API_KEY: '2/60' });
    const user = await app.createUser();
    const issue = async (name: string) =>
      (await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name } })).body.data.key as string;
    const [first, second] = [await issue('first'), await issue('second')];
    const pull = (key: string) => app.call('GET', `/api/owner/${user.id}/transactions`, { token: key });

    for (const remaining of ['1', '0']) {
      const res = await pull(first);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('2');
      expect(res.headers.get('ratelimit-remaining')).toBe(remaining);
    }
    const refused = await pull(first);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await pull(second)).status).toBe(200);
    // An unknown key is refused by authentication, before it can use any key's bucket.
    expect((await pull('sbk_unknown')).status).toBe(401);
  });
});

describe('Postgres store', () => {
  it('makes two API processes on one database enforce one limit together', async () => {
    const env = { RATE_LIMIT_STORE: 'postgres', RATE_LIMIT_IP: '6/60' };
    const first = await start(env);
    const second = await start(env, { databaseUrl: first.databaseUrl });
    expect(second.url).not.toBe(first.url);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await (i % 2 ? second : first).call('GET', '/openapi.json')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    const rows = await first.orm.em.getConnection().execute(`select key, points from rate_limits where key like 'ip:%'`);
    expect(rows).toEqual([{ key: 'ip:127.0.0.1', points: 8 }]);
  });

  it('falls back to the in-memory insurance limiter when the database is gone', async () => {
    const app = await start({ RATE_LIMIT_STORE: 'postgres', RATE_LIMIT_IP: '2/60' });
    await app.dropDatabase();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await app.call('GET', '/openapi.json')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('shares the brute-force guard across processes too', async () => {
    const env = { RATE_LIMIT_STORE: 'postgres', LOGIN_MAX_CONSECUTIVE_FAILS: '2' };
    const first = await start(env);
    const second = await start(env, { databaseUrl: first.databaseUrl });
    const user = await first.createUser();
    expect((await login(first, user.email, 'wrong-password')).status).toBe(401);
    expect((await login(second, user.email, 'wrong-password')).status).toBe(401);
    expect((await login(first, user.email, user.password)).status).toBe(429);
  });
});
