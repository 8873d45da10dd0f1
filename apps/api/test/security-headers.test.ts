import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ CORS_ORIGINS: 'https://app.example,https://admin.example' });
});
afterAll(() => app.close());

function expectHelmet(headers: Headers): void {
  expect(headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('x-frame-options')).toBe('SAMEORIGIN');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(headers.get('x-powered-by')).toBeNull();
  expect(headers.get('strict-transport-security')).toBeNull();
}

describe('helmet headers', () => {
  it('are on a 200', async () => {
    const res = await app.call('GET', '/healthz');
    expect(res.status).toBe(200);
    expectHelmet(res.headers);
  });

  it('are on a 404 and on a procedure error', async () => {
    const notFound = await app.call('GET', '/v1/nope');
    expect(notFound.status).toBe(404);
    expectHelmet(notFound.headers);
    const unauthenticated = await app.call('GET', '/v1/auth/me');
    expect(unauthenticated.status).toBe(401);
    expectHelmet(unauthenticated.headers);
  });

  it('are on a 500', async () => {
    const broken = await startTestApp();
    await broken.dropDatabase();
    const res = await broken.call('POST', '/v1/auth/login', { body: { email: 'a@b.co', password: 'whatever-123' } });
    expect(res.status).toBe(500);
    expectHelmet(res.headers);
    await broken.close().catch(() => {});
  });

  it('include HSTS when HSTS=true', async () => {
    const hsts = await startTestApp({ HSTS: 'true' });
    const res = await hsts.call('GET', '/healthz');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    await hsts.close();
  });
});

describe('CORS', () => {
  it('allows a listed origin, without credentials, and exposes the trace and rate-limit headers', async () => {
    const res = await app.call('GET', '/v1/auth/me', { headers: { origin: 'https://app.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
  });

  it('refuses an unlisted origin (no allow-origin header, never a wildcard)', async () => {
    const res = await app.call('GET', '/healthz', { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight for a listed origin', async () => {
    const res = await fetch(`${app.url}/v1/auth/login`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://admin.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://admin.example');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('refuses a preflight from an unlisted origin (no allow-origin: the browser stops there)', async () => {
    const res = await fetch(`${app.url}/v1/auth/login`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('Cache-Control', () => {
  it('is no-store on every answer that carries a user, a token or a credential', async () => {
    const user = await app.createUser();
    const key = (await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'cache' } })).body.data.key;
    const setup = await app.call('POST', '/v1/simplefin/setup-token', { token: user.accessToken, body: {} });
    const claimPath = new URL(Buffer.from(setup.body.data.setupToken, 'base64').toString()).pathname;
    const claimed = await fetch(app.url + claimPath, { method: 'POST' });
    const [credentials = ''] = (await claimed.text()).split('//')[1]?.split('@') ?? [];
    const answers = {
      'REST, signed in': await app.call('GET', '/v1/auth/me', { token: user.accessToken }),
      'REST, tokens': await app.call('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } }),
      'REST, an error': await app.call('GET', '/v1/accounts/00000000-0000-7000-8000-000000000000', { token: user.accessToken }),
      tRPC: await app.call('GET', '/trpc/auth.me', { token: user.accessToken }),
      pull: await app.call('GET', `/api/owner/${user.id}/transactions`, { token: key }),
      'SimpleFIN claim': { status: claimed.status, headers: claimed.headers },
      'SimpleFIN accounts': await fetch(`${app.url}/simplefin/accounts`, {
        headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
      }),
    };
    const cacheControl = Object.fromEntries(
      Object.entries(answers).map(([name, res]) => [name, [res.status, res.headers.get('cache-control')]]),
    );
    expect(cacheControl).toEqual({
      'REST, signed in': [200, 'no-store'],
      'REST, tokens': [200, 'no-store'],
      'REST, an error': [404, 'no-store'],
      tRPC: [200, 'no-store'],
      pull: [200, 'no-store'],
      'SimpleFIN claim': [200, 'no-store'],
      'SimpleFIN accounts': [200, 'no-store'],
    });
  });
});
