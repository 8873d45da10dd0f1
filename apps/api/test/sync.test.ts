/** Transaction sync's edges: cursors after a reset (410), malformed or foreign cursors (400), scopes (404). */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const sync = (token: string, query = '') => app.call('GET', `/v1/transactions/sync${query}`, { token });

/**
 * The page from `cursor` once it shows `expected`: the log's horizon waits for every transaction
 * open in the cluster (other test files' too), so a change is visible to sync a moment after it
 * commits, never before and never skipped.
 */
async function syncUntil(token: string, cursor: string, expected: object) {
  let res = await sync(token, `?cursor=${cursor}`);
  await expect
    .poll(async () => {
      res = await sync(token, `?cursor=${cursor}`);
      return res.body.data;
    })
    .toMatchObject(expected);
  return res;
}

describe('GET /v1/transactions/sync', () => {
  it('starts with the current state as added, then reports changes once in their latest state', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const credit = (await simulate(app, user, { accountId, amount: 5_000 })).body.data.transaction;
    const card = (await simulate(app, user, { accountId, amount: -1_000, status: 'pending' })).body.data.transaction;
    const first = await sync(user.accessToken);
    expect(first.status).toBe(200);
    expect(first.body.data.added.map((t: { id: string }) => t.id).sort()).toEqual([credit.id, card.id].sort());
    expect(first.body.data).toMatchObject({ modified: [], removed: [], hasMore: false });

    const post = (id: string, body: object) => app.call('POST', `/v1/transactions/${id}/post`, { token: user.accessToken, body });
    expect((await post(card.id, { amount: -1_200 })).status).toBe(200);
    const patched = await app.call('PATCH', `/v1/transactions/${card.id}`, {
      token: user.accessToken,
      body: { merchant: 'Orlen' },
    });
    expect(patched.status).toBe(200);
    const next = await syncUntil(user.accessToken, first.body.data.nextCursor, { modified: [{ version: 3 }] });
    expect(next.body.data.added).toEqual([]);
    expect(next.body.data.modified).toEqual([patched.body.data.transaction]);
    expect(next.body.data.modified[0]).toMatchObject({ status: 'posted', amount: -1_200, merchant: 'Orlen', version: 3 });

    const later = (await simulate(app, user, { accountId, amount: -300, status: 'pending' })).body.data.transaction;
    expect((await app.call('POST', `/v1/transactions/${later.id}/void`, { token: user.accessToken, body: {} })).status).toBe(200);
    const last = await syncUntil(user.accessToken, next.body.data.nextCursor, { removed: [{ id: later.id }] });
    expect(last.body.data).toMatchObject({ added: [], modified: [], removed: [{ id: later.id, accountId }], hasMore: false });
  });

  it('answers 410 CURSOR_EXPIRED once the sandbox was reset (the epoch moved), and a fresh sync works', async () => {
    const user = await app.createUser();
    await simulate(app, user, { accountId: await openAccount(app, user), amount: 100 });
    const { nextCursor } = (await sync(user.accessToken)).body.data;
    // What POST /v1/sandbox/reset does to cursors (CONTRACTS.md): bump the user's sync epoch.
    await app.db.query('update users set sync_epoch = sync_epoch + 1 where id = $1', [user.id]);
    const expired = await sync(user.accessToken, `?cursor=${nextCursor}`);
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('CURSOR_EXPIRED');
    expect((await sync(user.accessToken)).status).toBe(200);
  });

  it('refuses malformed cursors, a cursor of another accountId, and a stranger’s account', async () => {
    const user = await app.createUser();
    const stranger = await app.createUser();
    const [a, b] = [await openAccount(app, user), await openAccount(app, user)];
    for (const cursor of ['%%%', 'e30', Buffer.from('{"v":1,"k":"log","e":0,"a":null,"t":"x","s":"0"}').toString('base64url')]) {
      const res = await sync(user.accessToken, `?cursor=${cursor}`);
      expect(res.status, cursor).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'cursor' }] });
    }
    const scoped = (await sync(user.accessToken, `?accountId=${a}`)).body.data.nextCursor;
    const other = await sync(user.accessToken, `?accountId=${b}&cursor=${scoped}`);
    expect(other.status).toBe(400);
    expect(other.body.details[0].path).toBe('cursor');
    expect((await sync(stranger.accessToken, `?accountId=${a}`)).status).toBe(404);
  });
});

describe('GET /api/owner/:owner/transactions/sync', () => {
  it('resolves the owner like the pull endpoint: a user key reads only its own user', async () => {
    const user = await app.createUser();
    const stranger = await app.createUser();
    const accountId = await openAccount(app, user);
    const credit = (await simulate(app, user, { accountId, amount: 700 })).body.data.transaction;
    const key = (await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'sync' } })).body.data.key;
    const own = await app.call('GET', `/api/owner/${encodeURIComponent(user.email)}/transactions/sync`, { token: key });
    expect(own.status).toBe(200);
    expect(own.body.data.added).toEqual([credit]);
    expect((await app.call('GET', `/api/owner/${stranger.id}/transactions/sync`, { token: key })).status).toBe(404);
    expect((await app.call('GET', `/api/owner/${user.id}/transactions/sync`, { token: user.accessToken })).status).toBe(401);
  });
});
