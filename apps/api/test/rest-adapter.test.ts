/**
 * How the REST adapter (src/http/rest-handler.ts) turns a request into a procedure's input and its
 * result into a response: the rules trpc-to-openapi documents, which clients already rely on.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { restRoutes } from '../src/http/rest-routes.ts';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
let user: TestUser;
let accountId: string;

beforeAll(async () => {
  app = await startTestApp();
  user = await app.createUser();
  accountId = await openAccount(app, user, 'Adapter');
  for (const amount of [100, 200, 300]) expect((await simulate(app, user, { accountId, amount })).status).toBe(201);
});
afterAll(() => app.close());

const history = (query: string) => app.call('GET', `/v1/accounts/${accountId}/transactions${query}`, { token: user.accessToken });

describe('the REST adapter', () => {
  it('matches paths in any case and with a trailing slash', async () => {
    const exact = await app.call('GET', '/v1/accounts', { token: user.accessToken });
    expect(exact.status).toBe(200);
    for (const path of ['/V1/Accounts', '/v1/accounts/', `/v1/ACCOUNTS/${accountId}/transactions`]) {
      const res = await app.call('GET', path, { token: user.accessToken });
      expect(res.status, path).toBe(200);
    }
    expect((await app.call('GET', '/V1/Accounts', { token: user.accessToken })).body).toEqual(exact.body);
  });

  it('reads path parameters and the query string as the input', async () => {
    const res = await history('?limit=2&page=2');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 2, limit: 2, total: 3, hasMore: false });
    expect(res.body.data.map((transaction: { amount: number }) => transaction.amount)).toEqual([100]);
  });

  it('leaves empty query values out, so the defaults apply', async () => {
    const res = await history('?limit=&page=');
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ page: 1, limit: 50, total: 3 });
  });

  it('answers a repeated single-valued parameter with a validation error, and bad numbers too', async () => {
    for (const query of ['?limit=1&limit=2', '?limit=abc', '?limit=0']) {
      const res = await history(query);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', traceId: res.headers.get('x-request-id') });
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'limit' })]));
    }
  });

  it("answers with the procedure's own success status and its error's", async () => {
    const created = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Second' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    const missing = await app.call('GET', '/v1/accounts/0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d/transactions', {
      token: user.accessToken,
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      traceId: missing.headers.get('x-request-id'),
      code: 'NOT_FOUND',
      message: expect.any(String),
    });
  });

  it('does not coerce a JSON body: a string is not a boolean, so "false" cannot reset the world', async () => {
    await simulate(app, user, { accountId, amount: 400 });
    const res = await app.call('POST', '/v1/scenarios/apply', {
      token: user.accessToken,
      body: { scenario: { version: 1, seed: 1, accounts: [{ key: 'a', name: 'A', openingBalance: 100 }] }, reset: 'false' },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'reset' })]));
    expect((await history('')).body.meta.total).toBe(4);
  });

  it('refuses a body that is not JSON before it runs anything', async () => {
    const before = await app.call('GET', '/v1/accounts', { token: user.accessToken });
    const res = await app.call('POST', '/v1/accounts', {
      token: user.accessToken,
      body: 'name=Third',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await app.call('GET', '/v1/accounts', { token: user.accessToken })).body.data).toEqual(before.body.data);
  });

  it('refuses to start with two procedures on one method and path', () => {
    const t = initTRPC.meta<OpenApiMeta>().create();
    const at = (path: `/${string}`) =>
      t.procedure
        .meta({ openapi: { method: 'GET', path } })
        .input(z.object({ id: z.string() }))
        .output(z.string())
        .query(() => '');
    const router = (second: `/${string}`) => t.router({ first: at('/v1/things/{id}'), second: at(second) });
    expect(() => restRoutes(router('/V1/Things/{id}/')._def.procedures)).toThrow(/two procedures \(second/);
    expect(restRoutes(router('/v1/things/{id}/parts')._def.procedures).match('GET', '/v1/things/x/parts')?.route.procedure).toBe(
      'second',
    );
  });
});
