/**
 * The Enable Banking face's authentication (docs/faces/enablebanking.md): the application's own RS256
 * JWT as Enable Banking documents it, and nothing else. Every refusal is 401 in Enable Banking's
 * error shape (validated against its document by the test server) and never echoes the token; the
 * application's key, registration and rate limit.
 */
import { generateKeyPairSync } from 'node:crypto';
import { importPKCS8, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers.ts';
import { type App, enablebankingCalls, type JwtOptions } from './calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_API_KEY: '5/60', LIMIT_API_KEYS: '3' });
});
afterAll(() => app.close());

const { register, jwt } = enablebankingCalls(() => app);

const get = (path: string, authorization?: string) =>
  app.call('GET', `/enablebanking${path}`, { headers: authorization ? { authorization } : {} });

const otherKey = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

describe('Enable Banking JWTs', () => {
  let application: App;
  beforeAll(async () => {
    application = await register(await app.createUser());
  });

  it('accepts the documented JWT', async () => {
    const res = await get('/application', `Bearer ${await jwt(application)}`);
    expect(res.status).toBe(200);
    expect(res.body.kid).toBe(application.id);
  });

  const refused: [string, () => Promise<string | undefined>, string][] = [
    ['no Authorization header', async () => undefined, 'AUTHORIZATION_NOT_PROVIDED'],
    ['not a Bearer token', async () => `Basic ${Buffer.from('a:b').toString('base64')}`, 'UNAUTHORIZED_ACCESS'],
    ['not a JWT', async () => 'Bearer not-a-jwt', 'UNAUTHORIZED_ACCESS'],
    ['an unknown kid', async () => `Bearer ${await jwt(application, { kid: crypto.randomUUID() })}`, 'UNAUTHORIZED_ACCESS'],
    ['a kid that is no UUID', async () => `Bearer ${await jwt(application, { kid: 'app' })}`, 'UNAUTHORIZED_ACCESS'],
    ['another key’s signature', async () => `Bearer ${await jwt(application, { key: otherKey() })}`, 'UNAUTHORIZED_ACCESS'],
    ['an expired JWT', async () => `Bearer ${await jwt(application, { iat: -7200, exp: -60 })}`, 'UNAUTHORIZED_ACCESS'],
    ['a wrong aud', async () => `Bearer ${await jwt(application, { aud: 'api.example.com' })}`, 'UNAUTHORIZED_ACCESS'],
    ['a wrong iss', async () => `Bearer ${await jwt(application, { iss: 'example.com' })}`, 'UNAUTHORIZED_ACCESS'],
    [
      'a JWT living longer than 24 h',
      async () => `Bearer ${await jwt(application, { iat: 0, exp: 86_401 } satisfies JwtOptions)}`,
      'UNAUTHORIZED_ACCESS',
    ],
    [
      'alg none',
      async () =>
        `Bearer ${new UnsecuredJWT({})
          .setIssuer('enablebanking.com')
          .setAudience('api.enablebanking.com')
          .setIssuedAt()
          .setExpirationTime('1h')
          .encode()
          .replace(/^[^.]+/, Buffer.from(JSON.stringify({ alg: 'none', kid: application.id })).toString('base64url'))}`,
      'UNAUTHORIZED_ACCESS',
    ],
    [
      'HS256 keyed with the public key',
      async () => {
        const { rows } = await app.db.query('select public_key from enablebanking_applications where id = $1', [application.id]);
        const now = Math.floor(Date.now() / 1000);
        const token = await new SignJWT({})
          .setProtectedHeader({ alg: 'HS256', kid: application.id })
          .setIssuer('enablebanking.com')
          .setAudience('api.enablebanking.com')
          .setIssuedAt(now)
          .setExpirationTime(now + 600)
          .sign(new TextEncoder().encode(rows[0].public_key));
        return `Bearer ${token}`;
      },
      'UNAUTHORIZED_ACCESS',
    ],
    [
      'no exp',
      async () =>
        `Bearer ${await new SignJWT({})
          .setProtectedHeader({ alg: 'RS256', kid: application.id })
          .setIssuer('enablebanking.com')
          .setAudience('api.enablebanking.com')
          .setIssuedAt()
          .sign(await importPKCS8(application.privateKey, 'RS256'))}`,
      'UNAUTHORIZED_ACCESS',
    ],
  ];

  it.each(refused)('refuses %s with 401 in Enable Banking’s shape', async (_case, header, error) => {
    const authorization = await header();
    const res = await get('/application', authorization);
    expect([res.status, res.body.code, res.body.error]).toEqual([401, 401, error]);
    expect(typeof res.body.message).toBe('string');
    if (authorization) expect(JSON.stringify(res.body)).not.toContain(authorization.slice(7, 40));
  });

  it('refuses a removed world’s application', async () => {
    const user = await app.createUser();
    const gone = await register(user);
    await app.db.query('delete from users where id = $1', [user.id]);
    const res = await get('/application', `Bearer ${await jwt(gone)}`);
    expect([res.status, res.body.error]).toEqual([401, 'UNAUTHORIZED_ACCESS']);
  });
});

describe('Enable Banking applications', () => {
  it('registers with the owner’s own RSA public key, and refuses keys that are not RSA ≥ 2048 bits', async () => {
    const user = await app.createUser();
    const pair = generateKeyPairSync('rsa', { modulusLength: 3072 });
    const publicKey = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const res = await app.call('POST', '/v1/enablebanking/applications', {
      token: user.accessToken,
      body: { name: 'Own key', redirectUrls: ['https://a.example/cb'], publicKey },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.privateKey).toBeUndefined();
    expect(res.body.data.publicKey).toBe(publicKey);
    const own: App = {
      id: res.body.data.id,
      privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      redirectUrls: ['https://a.example/cb'],
    };
    expect((await get('/application', `Bearer ${await jwt(own)}`)).body.name).toBe('Own key');

    const bad = [
      'not a key',
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ];
    for (const key of bad) {
      const refused = await app.call('POST', '/v1/enablebanking/applications', {
        token: user.accessToken,
        body: { name: 'Bad key', redirectUrls: ['https://a.example/cb'], publicKey: key },
      });
      expect([refused.status, refused.body.code, refused.body.details?.[0]?.path]).toEqual([
        400,
        'VALIDATION_ERROR',
        'publicKey',
      ]);
    }
    const noRedirect = await app.call('POST', '/v1/enablebanking/applications', {
      token: user.accessToken,
      body: { name: 'No redirect', redirectUrls: [] },
    });
    expect(noRedirect.status).toBe(400);
    const { rows } = await app.db.query('select count(*)::int as n from enablebanking_applications where user_id = $1', [
      user.id,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('counts applications toward LIMIT_API_KEYS with the API keys', async () => {
    const user = await app.createUser();
    for (const name of ['one', 'two'])
      expect((await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name } })).status).toBe(201);
    await register(user);
    const refused = await app.call('POST', '/v1/enablebanking/applications', {
      token: user.accessToken,
      body: { name: 'Fourth', redirectUrls: ['https://a.example/cb'] },
    });
    expect([refused.status, refused.body.code, refused.body.details?.[0]?.path]).toEqual([422, 'LIMIT_EXCEEDED', 'apiKeys']);
    const key = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'three' } });
    expect([key.status, key.body.code]).toEqual([422, 'LIMIT_EXCEEDED']);
  });

  it('lists the owner’s applications without private keys, and removing one ends its JWTs and sessions', async () => {
    const user = await app.createUser();
    const application = await register(user);
    const list = await app.call('GET', '/v1/enablebanking/applications', { token: user.accessToken });
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([application.id]);
    expect(JSON.stringify(list.body)).not.toContain('PRIVATE KEY');
    const started = await app.call('POST', '/enablebanking/auth', {
      headers: { authorization: `Bearer ${await jwt(application)}` },
      body: {
        access: { valid_until: new Date(Date.now() + 86_400_000).toISOString() },
        aspsp: { name: 'Sandbank Sandbox', country: 'PL' },
        state: 's',
        redirect_url: application.redirectUrls[0],
      },
    });
    expect(started.status).toBe(200);
    const stranger = await app.createUser();
    const notYours = await app.call('DELETE', `/v1/enablebanking/applications/${application.id}`, {
      token: stranger.accessToken,
    });
    expect([notYours.status, notYours.body.code]).toEqual([404, 'NOT_FOUND']);
    const removed = await app.call('DELETE', `/v1/enablebanking/applications/${application.id}`, { token: user.accessToken });
    expect([removed.status, removed.body.data.id]).toEqual([200, application.id]);
    const after = await get('/application', `Bearer ${await jwt(application)}`);
    expect([after.status, after.body.error]).toEqual([401, 'UNAUTHORIZED_ACCESS']);
    const { rows } = await app.db.query('select count(*)::int as n from enablebanking_authorizations where application_id = $1', [
      application.id,
    ]);
    expect(rows[0].n).toBe(0);
    const again = await app.call('DELETE', `/v1/enablebanking/applications/${application.id}`, { token: user.accessToken });
    expect(again.status).toBe(404);
  });

  it('limits each application’s calls, in Enable Banking’s shape, apart from other applications', async () => {
    const user = await app.createUser();
    const [first, second] = [await register(user), await register(user)];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get('/aspsps', `Bearer ${await jwt(first)}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await get('/aspsps', `Bearer ${await jwt(first)}`);
    expect([limited.status, limited.body.code]).toEqual([429, 429]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await get('/aspsps', `Bearer ${await jwt(second)}`)).status).toBe(200);
  });

  it('answers unknown paths and bodies that are not JSON in Enable Banking’s shape', async () => {
    const application = await register(await app.createUser());
    const unknown = await get('/nowhere', `Bearer ${await jwt(application)}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 404]);
    const badJson = await app.call('POST', '/enablebanking/auth', {
      body: '{"access":',
      headers: { authorization: `Bearer ${await jwt(application)}`, 'content-type': 'application/json' },
    });
    expect([badJson.status, badJson.body.error]).toEqual([422, 'WRONG_REQUEST_PARAMETERS']);
  });
});

describe('the per-address limit on the face', () => {
  it('refuses in Enable Banking’s shape', async () => {
    const limited = await startTestApp({ RATE_LIMIT_IP: '2/60' });
    try {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<TestApp['call']>> | undefined;
      for (let i = 0; i < 3; i++) {
        last = await limited.call('GET', '/enablebanking/aspsps');
        statuses.push(last.status);
      }
      expect(statuses).toEqual([401, 401, 429]);
      expect(last?.body).toMatchObject({ code: 429, message: 'Too many requests' });
      expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
