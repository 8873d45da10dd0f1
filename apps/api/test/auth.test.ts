import type { AppRouter } from '@sandbank/core';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const register = (email: string, password = 'password-123') =>
  app.call('POST', '/v1/auth/register', { body: { email, password } });

describe('register', () => {
  it('creates a user, lower-cases the e-mail and starts a session', async () => {
    const res = await register('  Ada.Lovelace@Example.COM ');
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      user: { id: expect.any(String), email: 'ada.lovelace@example.com', createdAt: expect.stringMatching(/Z$/) },
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 900,
    });
    expect(res.body.data.user.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('refuses a taken e-mail whatever its case with 409 EMAIL_TAKEN', async () => {
    await register('taken@example.com');
    const res = await register('TAKEN@example.com');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EMAIL_TAKEN');
  });

  it.each([
    ['too short', 'short12'],
    ['too long', 'x'.repeat(129)],
  ])('refuses a password that is %s with details', async (_, password) => {
    const res = await register('weak@example.com', password);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'password', message: expect.any(String) }] });
  });

  it('refuses unknown keys', async () => {
    const res = await app.call('POST', '/v1/auth/register', {
      body: { email: 'k@example.com', password: 'password-123', role: 'admin' },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toContainEqual({ path: 'role', message: 'Unknown field' });
  });
});

describe('login', () => {
  it('logs in with the right password, whatever the e-mail case', async () => {
    await register('login@example.com');
    const res = await app.call('POST', '/v1/auth/login', { body: { email: 'LOGIN@example.com', password: 'password-123' } });
    expect(res.status).toBe(200);
    expect(res.body.data.user.email).toBe('login@example.com');
  });

  it('answers a wrong password and an unknown e-mail the same way', async () => {
    const wrong = await app.call('POST', '/v1/auth/login', { body: { email: 'login@example.com', password: 'wrong-password' } });
    const unknown = await app.call('POST', '/v1/auth/login', {
      body: { email: 'ghost@example.com', password: 'wrong-password' },
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_CREDENTIALS');
    }
    expect(wrong.body.message).toBe(unknown.body.message);
  });
});

describe('refresh', () => {
  it('rotates: each refresh token works once, and reuse revokes the whole family', async () => {
    const user = await app.createUser();
    const first = await app.call('POST', '/v1/auth/refresh', { body: { refreshToken: user.refreshToken } });
    expect(first.status).toBe(200);
    expect(first.body.data.refreshToken).not.toBe(user.refreshToken);

    // The old token again: reuse. The family dies, including the token just issued.
    const reuse = await app.call('POST', '/v1/auth/refresh', { body: { refreshToken: user.refreshToken } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('UNAUTHENTICATED');
    const afterReuse = await app.call('POST', '/v1/auth/refresh', { body: { refreshToken: first.body.data.refreshToken } });
    expect(afterReuse.status).toBe(401);
  });

  it('lets exactly one of two racing refreshes win', async () => {
    const user = await app.createUser();
    const results = await Promise.all(
      [1, 2, 3].map(() => app.call('POST', '/v1/auth/refresh', { body: { refreshToken: user.refreshToken } })),
    );
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
  });

  it('refuses an unknown token', async () => {
    const res = await app.call('POST', '/v1/auth/refresh', { body: { refreshToken: 'not-a-token' } });
    expect(res.status).toBe(401);
  });

  it('issues refresh tokens for the configured lifetime and refuses one past its expiry', async () => {
    const short = await startTestApp({ REFRESH_TOKEN_TTL_SECONDS: '120' });
    const user = await short.createUser();
    const expiry = async () =>
      (
        await short.db.query(
          'select extract(epoch from expires_at - created_at)::int as ttl from refresh_tokens where user_id = $1',
          [user.id],
        )
      ).rows[0].ttl;
    expect(await expiry()).toBe(120);
    // Time travel for the token, not the test: its expiry moves into the past.
    await short.db.query(`update refresh_tokens set expires_at = now() - interval '1 second' where user_id = $1`, [user.id]);
    const res = await short.call('POST', '/v1/auth/refresh', { body: { refreshToken: user.refreshToken } });
    expect(res.status).toBe(401);
    await short.close();
  });
});

describe('access tokens', () => {
  it('GET /v1/auth/me returns the user of the token', async () => {
    const user = await app.createUser();
    const res = await app.call('GET', '/v1/auth/me', { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: user.id, email: user.email, createdAt: expect.any(String) });
  });

  it('refuses a missing, tampered, alg-none, foreign-key or expired token with 401 UNAUTHENTICATED', async () => {
    const user = await app.createUser();
    const [header, payload, signature] = user.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: '00000000-0000-7000-8000-000000000000' })).toString('base64url');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-that-is-32-characters!!'));
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(app.deps.secrets.jwtSecret);
    for (const token of [undefined, 'garbage', `${header}.${forged}.${signature}`, none, foreign, expired]) {
      const res = await app.call('GET', '/v1/auth/me', token ? { token } : {});
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
    }
  });

  it('issues access tokens for the configured lifetime and refuses them once expired', async () => {
    const short = await startTestApp({ ACCESS_TOKEN_TTL_SECONDS: '90' });
    const user = await short.createUser();
    expect((await short.call('GET', '/v1/auth/me', { token: user.accessToken })).status).toBe(200);
    const claims = JSON.parse(Buffer.from(user.accessToken.split('.')[1]!, 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(90);
    // The same claims, signed with the same key, a lifetime later: refused as expired.
    const lapsed = await new SignJWT({ ...claims, iat: claims.iat - 90, exp: claims.exp - 90 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(short.deps.secrets.jwtSecret);
    const res = await short.call('GET', '/v1/auth/me', { token: lapsed });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/expired/);
    await short.close();
  });
});

describe('logout', () => {
  it('revokes the session family', async () => {
    const user = await app.createUser();
    const res = await app.call('POST', '/v1/auth/logout', { token: user.accessToken, body: {} });
    expect(res.status).toBe(200);
    const refresh = await app.call('POST', '/v1/auth/refresh', { body: { refreshToken: user.refreshToken } });
    expect(refresh.status).toBe(401);
  });
});

describe('through the typed tRPC client', () => {
  it('registers, reads me and maps errors to the contract code', async () => {
    let token = '';
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${app.url}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) })],
    });
    const registered = await client.auth.register.mutate({ email: 'typed@example.com', password: 'password-123' });
    token = registered.data.accessToken;
    const me = await client.auth.me.query();
    expect(me.data.email).toBe('typed@example.com');
    const failure = await client.auth.login.mutate({ email: 'typed@example.com', password: 'nope-nope-nope' }).catch((e) => e);
    expect(failure).toBeInstanceOf(TRPCClientError);
    expect(failure.data.code).toBe('INVALID_CREDENTIALS');
  });
});

describe('secrets never reach the logs', () => {
  it('a full flow logs no password, hash or token', async () => {
    const email = 'logs@example.com';
    const password = 'very-secret-password-42';
    const reg = await app.call('POST', '/v1/auth/register', { body: { email, password } });
    const { accessToken, refreshToken } = reg.body.data;
    await app.call('POST', '/v1/auth/login', { body: { email, password } });
    await app.call('POST', '/v1/auth/login', { body: { email, password: 'wrong-password-1' } });
    await app.call('GET', '/v1/auth/me', { token: accessToken });
    await app.call('POST', '/v1/auth/refresh', { body: { refreshToken } });
    const logs = app.logs.join('\n');
    expect(logs).toContain('request');
    for (const secret of [password, accessToken, refreshToken, 'argon2id']) expect(logs).not.toContain(secret);
  });
});
