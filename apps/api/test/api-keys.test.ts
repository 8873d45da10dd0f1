import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const KEY_FORMAT = /^sbk_[A-Za-z0-9_-]{43}$/;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const createKey = (user: TestUser, body: Record<string, unknown> = { name: 'Budget app' }) =>
  app.call('POST', '/v1/api-keys', { token: user.accessToken, body });
const listKeys = (user: TestUser, query = '') => app.call('GET', `/v1/api-keys${query}`, { token: user.accessToken });

describe('POST /v1/api-keys', () => {
  it('returns the key once, with its metadata', async () => {
    const user = await app.createUser();
    const res = await createKey(user);
    expect(res.status).toBe(201);
    const { key, ...apiKey } = res.body.data;
    expect(key).toMatch(KEY_FORMAT);
    expect(apiKey).toEqual({
      id: expect.any(String),
      name: 'Budget app',
      prefix: key.slice(0, 12),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    });
  });

  it('stores only the SHA-256 of the key', async () => {
    const user = await app.createUser();
    const { key, id } = (await createKey(user)).body.data;
    const [row] = await app.orm.em.fork().execute('select * from api_keys where id = ?', [id]);
    expect(row?.key_hash).toBe(sha256(key));
    expect(JSON.stringify(row)).not.toContain(key);
  });

  it('issues a different key every time', async () => {
    const user = await app.createUser();
    const keys = await Promise.all([createKey(user), createKey(user), createKey(user)]);
    expect(new Set(keys.map((res) => res.body.data.key)).size).toBe(3);
  });

  it('takes an expiry in the future and refuses one in the past', async () => {
    const user = await app.createUser();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const ok = await createKey(user, { name: 'Expiring', expiresAt });
    expect(ok.status).toBe(201);
    expect(ok.body.data.expiresAt).toBe(expiresAt);
    const past = await createKey(user, { name: 'Expired', expiresAt: '2020-01-01T00:00:00.000Z' });
    expect(past.status).toBe(400);
    expect(past.body.details).toEqual([{ path: 'expiresAt', message: expect.any(String) }]);
  });

  it.each([
    ['an empty name', { name: '  ' }, 'name'],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, 'name'],
    ['an unknown field', { name: 'ok', scope: 'admin' }, 'scope'],
    ['a malformed expiry', { name: 'ok', expiresAt: 'tomorrow' }, 'expiresAt'],
  ])('refuses %s with 400', async (_, body, path) => {
    const res = await createKey(await app.createUser(), body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });
});

describe('GET /v1/api-keys', () => {
  it('lists the caller’s keys newest first, never the key or its hash', async () => {
    const user = await app.createUser();
    const first = (await createKey(user, { name: 'First' })).body.data;
    const second = (await createKey(user, { name: 'Second' })).body.data;
    await createKey(await app.createUser(), { name: 'Not mine' });
    const res = await listKeys(user);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 50, total: 2, hasMore: false });
    expect(res.body.data.map((key: { name: string }) => key.name)).toEqual(['Second', 'First']);
    const { key: _secondKey, ...secondListed } = second;
    expect(res.body.data[0]).toEqual(secondListed);
    const text = JSON.stringify(res.body);
    for (const created of [first, second]) {
      expect(text).not.toContain(created.key);
      expect(text).not.toContain(sha256(created.key));
    }
    expect(Object.keys(res.body.data[0]).sort()).toEqual(
      ['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt'].sort(),
    );
  });

  it('paginates', async () => {
    const user = await app.createUser();
    for (const name of ['a', 'b', 'c']) await createKey(user, { name });
    const page2 = await listKeys(user, '?page=2&limit=2');
    expect(page2.body.data.map((key: { name: string }) => key.name)).toEqual(['a']);
    expect(page2.body.meta).toEqual({ page: 2, limit: 2, total: 3, hasMore: false });
    expect((await listKeys(user, '?limit=0')).status).toBe(400);
  });

  it('shows revoked keys, as revoked, with status=all or status=revoked only', async () => {
    const user = await app.createUser();
    const kept = (await createKey(user, { name: 'Kept' })).body.data;
    const gone = (await createKey(user, { name: 'Gone' })).body.data;
    const revoked = await app.call('DELETE', `/v1/api-keys/${gone.id}`, { token: user.accessToken });
    const names = async (query: string) =>
      (await listKeys(user, query)).body.data.map((key: { name: string; revokedAt: string | null }) => [key.name, key.revokedAt]);
    expect(await names('')).toEqual([['Kept', null]]);
    expect(await names('?status=active')).toEqual([['Kept', null]]);
    expect(await names('?status=all')).toEqual([
      ['Gone', revoked.body.data.revokedAt],
      ['Kept', null],
    ]);
    expect(await names('?status=revoked')).toEqual([['Gone', revoked.body.data.revokedAt]]);
    expect((await listKeys(user, '?status=all')).body.meta.total).toBe(2);
    const text = JSON.stringify((await listKeys(user, '?status=all')).body);
    for (const created of [kept, gone]) expect(text).not.toContain(created.key);
    const bad = await listKeys(user, '?status=deleted');
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((detail: { path: string }) => detail.path)).toContain('status');
  });
});

describe('DELETE /v1/api-keys/:id', () => {
  it('revokes the key: it leaves the list, stops working, and a second revoke is 404', async () => {
    const user = await app.createUser();
    const created = (await createKey(user)).body.data;
    const pull = () => app.call('GET', `/api/owner/${user.id}/transactions`, { token: created.key });
    expect((await pull()).status).toBe(200);

    const res = await app.call('DELETE', `/v1/api-keys/${created.id}`, { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: created.id, revokedAt: expect.stringMatching(/Z$/) });
    expect(res.body.data.key).toBeUndefined();
    expect((await listKeys(user)).body.data).toEqual([]);
    expect(await pull()).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });

    const again = await app.call('DELETE', `/v1/api-keys/${created.id}`, { token: user.accessToken });
    expect(again.status).toBe(404);
  });

  it('refuses an id that is not a UUID with 400', async () => {
    const user = await app.createUser();
    const res = await app.call('DELETE', '/v1/api-keys/not-a-uuid', { token: user.accessToken });
    expect(res.status).toBe(400);
  });
});

describe('API keys and user endpoints', () => {
  it('an API key is not a user access token', async () => {
    const user = await app.createUser();
    const { key } = (await createKey(user)).body.data;
    const res = await app.call('GET', '/v1/api-keys', { token: key });
    expect(res.status).toBe(401);
  });
});
