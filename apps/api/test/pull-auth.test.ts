import type { AppRouter } from '@sandbank/core';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

const PARTNER_KEY = 'partner-key-for-auth-tests-0123456789abcdefghijkl';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PARTNER_API_KEYS: PARTNER_KEY });
});
afterAll(() => app.close());

async function createKey(user: TestUser, body: Record<string, unknown> = { name: 'Auth' }) {
  return (await app.call('POST', '/v1/api-keys', { token: user.accessToken, body })).body.data as { id: string; key: string };
}
const pull = (owner: string, headers: Record<string, string> = {}) =>
  app.call('GET', `/api/owner/${owner}/transactions`, { headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const sql = (query: string, params: unknown[]) => app.orm.em.fork().execute(query, params);

describe('pull authentication', () => {
  it('refuses a missing, malformed or unknown key with 401 UNAUTHENTICATED', async () => {
    const user = await app.createUser();
    const { key } = await createKey(user);
    for (const headers of [
      {},
      { authorization: key },
      { authorization: `Basic ${key}` },
      bearer(`${key}x`),
      bearer(`sbk_${'A'.repeat(43)}`),
      bearer(`${PARTNER_KEY}x`),
      bearer('not-a-key'),
    ]) {
      const res = await pull(user.id, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
    }
  });

  it('refuses a user access token in place of a key', async () => {
    const user = await app.createUser();
    const res = await pull(user.id, bearer(user.accessToken));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringContaining('not a user access token') });
  });

  it('refuses a revoked key', async () => {
    const user = await app.createUser();
    const { id, key } = await createKey(user);
    expect((await pull(user.id, bearer(key))).status).toBe(200);
    await app.call('DELETE', `/v1/api-keys/${id}`, { token: user.accessToken });
    expect(await pull(user.id, bearer(key))).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
  });

  it('refuses an expired key', async () => {
    const user = await app.createUser();
    const { id, key } = await createKey(user, { name: 'Short', expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await pull(user.id, bearer(key))).status).toBe(200);
    await sql(`update api_keys set expires_at = now() - interval '1 millisecond' where id = ?`, [id]);
    expect(await pull(user.id, bearer(key))).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
  });

  it('authenticates before it validates: a bad query without a key is 401, not 400', async () => {
    const res = await app.call('GET', '/api/owner/x/transactions?from=nonsense');
    expect(res.status).toBe(401);
  });

  it('works over tRPC too, with the same key', async () => {
    const user = await app.createUser();
    const { key } = await createKey(user);
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${app.url}/trpc`, headers: bearer(key) })],
    });
    const result = await client.integrations.pullTransactions.query({ owner: user.email });
    expect(result).toEqual({ data: [], meta: { page: 1, limit: 50, total: 0, hasMore: false } });
  });
});

describe('lastUsedAt', () => {
  it('is set on use and written at most once a minute', async () => {
    const user = await app.createUser();
    const { id, key } = await createKey(user);
    const lastUsedAt = async () => {
      const [row] = (await sql('select last_used_at from api_keys where id = ?', [id])) as { last_used_at: string | null }[];
      return row?.last_used_at ? new Date(row.last_used_at) : null;
    };
    expect(await lastUsedAt()).toBeNull();

    await pull(user.id, bearer(key));
    const first = await lastUsedAt();
    expect(first).toBeInstanceOf(Date);
    await pull(user.id, bearer(key));
    expect(await lastUsedAt()).toEqual(first); // within the minute: no write

    const thirtySecondsAgo = new Date(Date.now() - 30_000);
    await sql('update api_keys set last_used_at = ? where id = ?', [thirtySecondsAgo.toISOString(), id]);
    await pull(user.id, bearer(key));
    expect(await lastUsedAt()).toEqual(thirtySecondsAgo);

    await sql(`update api_keys set last_used_at = now() - interval '2 minutes' where id = ?`, [id]);
    const before = Date.now();
    await pull(user.id, bearer(key));
    expect((await lastUsedAt())?.getTime()).toBeGreaterThanOrEqual(before - 5);

    const listed = await app.call('GET', '/v1/api-keys', { token: user.accessToken });
    expect(listed.body.data[0].lastUsedAt).toBe((await lastUsedAt())?.toISOString());
  });
});

describe('secrets', () => {
  it('never writes a user key or a partner key to the logs', async () => {
    const user = await app.createUser();
    const { key } = await createKey(user);
    await pull(user.id, bearer(key));
    await pull(user.id, bearer(PARTNER_KEY));
    await pull(user.id, bearer(`${key}x`));
    await app.call('GET', '/v1/api-keys', { token: user.accessToken });
    const logs = app.logs.join('');
    expect(logs).toContain('/api/owner/'); // the requests were logged…
    expect(logs).not.toContain(key.slice(4)); // …without the key
    expect(logs).not.toContain(PARTNER_KEY);
  });
});

describe('the OpenAPI document', () => {
  it('marks the pull endpoint with the API-key scheme and user endpoints with the JWT scheme', async () => {
    const { body } = await app.call('GET', '/openapi.json');
    expect(body.components.securitySchemes.ApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(body.components.securitySchemes.Authorization).toMatchObject({ bearerFormat: 'JWT' });
    const pullOperation = body.paths['/api/owner/{owner}/transactions'].get;
    expect(pullOperation.security).toEqual([{ ApiKey: [] }]);
    expect(Object.keys(pullOperation.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '409']));
    expect(body.paths['/v1/api-keys'].post.security).toEqual([{ Authorization: [] }]);
    expect(Object.keys(body.paths['/v1/api-keys'].post.responses)).toContain('201');
    expect(body.paths['/v1/auth/me'].get.security).toEqual([{ Authorization: [] }]);
  });
});
