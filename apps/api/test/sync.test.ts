/**
 * Transaction sync's edges: cursors after a reset (410), malformed or foreign cursors (400), scopes (404),
 * and cursors that live through a scenario apply (its one event stands for its rows).
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';

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

  it('answers 410, not 404, to a cursor for an account the reset removed', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await simulate(app, user, { accountId, amount: 100 });
    const { nextCursor } = (await sync(user.accessToken, `?accountId=${accountId}`)).body.data;
    const reset = await app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } });
    expect(reset.status).toBe(200);
    const expired = await sync(user.accessToken, `?accountId=${accountId}&cursor=${nextCursor}`);
    expect([expired.status, expired.body.code]).toEqual([410, 'CURSOR_EXPIRED']);
    // Without a cursor, the account is simply not there any more.
    expect((await sync(user.accessToken, `?accountId=${accountId}`)).status).toBe(404);
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

describe('sync across a scenario apply', () => {
  type Held = { id: string; accountId: string; status: string; version: number };
  type SyncState = { cursor?: string; held: Map<string, Held> };

  /** A client that follows nextCursor while hasMore, checking each page's own rules. */
  async function follow(path: string, token: string, state: SyncState, limit: number) {
    for (;;) {
      const query = new URLSearchParams({ limit: String(limit), ...(state.cursor ? { cursor: state.cursor } : {}) });
      const res = await app.call('GET', `${path}${path.includes('?') ? '&' : '?'}${query}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { added, modified, removed, nextCursor, hasMore } = res.body.data;
      const ids = [...added, ...modified, ...removed].map((t: { id: string }) => t.id);
      expect(ids.length).toBeLessThanOrEqual(limit);
      expect(new Set(ids).size).toBe(ids.length);
      for (const t of [...added, ...modified]) state.held.set(t.id, t);
      for (const r of removed) state.held.delete(r.id);
      state.cursor = nextCursor;
      if (!hasMore) return;
    }
  }

  async function history(user: TestUser, accountId: string): Promise<Held[]> {
    const items: Held[] = [];
    for (let page = 1; ; page++) {
      const res = await app.call('GET', `/v1/accounts/${accountId}/transactions?limit=200&page=${page}`, {
        token: user.accessToken,
      });
      items.push(...res.body.data);
      if (!res.body.meta.hasMore) return items;
    }
  }
  const byId = (items: Iterable<Held>) => [...items].sort((a, b) => a.id.localeCompare(b.id));

  it('keeps old cursors working: they deliver the scenario’s rows page by page, then what changes after', async () => {
    const user = await app.createUser();
    const old = await openAccount(app, user);
    await simulate(app, user, { accountId: old, amount: 5_000 });
    await simulate(app, user, { accountId: old, amount: -1_000, status: 'pending' });
    const key = (await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'sync' } })).body.data.key;
    const client = (path: string, token: string) => ({ path, token, state: { held: new Map<string, Held>() } as SyncState });
    const clients = [
      client('/v1/transactions/sync', user.accessToken),
      client(`/api/owner/${user.id}/transactions/sync`, key),
      client(`/v1/transactions/sync?accountId=${old}`, user.accessToken),
    ];
    for (const client of clients) await follow(client.path, client.token, client.state, 2);

    const scenario = {
      version: 1,
      seed: 5,
      accounts: [
        { key: 'main', name: 'Konto', openingBalance: 500_000, history: { months: 2, profile: 'student' } },
        {
          key: 'extra',
          name: 'Dodatkowe',
          openingBalance: 10_000,
          transactions: Array.from({ length: 12 }, (_, n) => ({ at: `-P${n + 1}D`, amount: -100, description: `t${n}` })),
          schedules: [{ amount: 300, description: 'Kieszonkowe', rrule: 'FREQ=DAILY', timezone: 'UTC', startAt: '-P3D' }],
        },
      ],
    };
    const applied = await app.call('POST', '/v1/scenarios/apply', { token: user.accessToken, body: { scenario } });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const accounts = [old, ...applied.body.data.accounts.map((account: { id: string }) => account.id)];
    expect(applied.body.data.transactions).toBeGreaterThan(40);

    // One page in, the world moves: a scenario row is voided, another posted, an old account gets a credit.
    // The first client takes one page of 7, all of them the scenario's: then the world moves. (The log
    // serves an event once every older transaction of the cluster has ended, so poll for it.)
    const [first] = clients;
    let page: CallResult<Output['transactions']['syncTransactions']> | undefined;
    await expect
      .poll(async () => {
        page = await app.call<Output['transactions']['syncTransactions']>(
          'GET',
          `/v1/transactions/sync?limit=7&cursor=${first?.state.cursor}`,
          {
            token: user.accessToken,
          },
        );
        return page.body.data.added.length;
      })
      .toBe(7);
    expect(page?.body.data).toMatchObject({ modified: [], removed: [], hasMore: true });
    for (const txn of page?.body.data.added ?? []) first?.state.held.set(txn.id, txn);
    if (first && page) first.state.cursor = page.body.data.nextCursor;
    const pending = (
      await app.db.query(
        `select id from transactions where user_id = $1 and status = 'pending' and raw->>'source' = 'scenario'`,
        [user.id],
      )
    ).rows.map((row) => row.id);
    expect(pending.length).toBeGreaterThanOrEqual(2);
    const act = (id: string, verb: string) =>
      app.call('POST', `/v1/transactions/${id}/${verb}`, { token: user.accessToken, body: {} });
    expect((await act(pending[0], 'void')).status).toBe(200);
    expect((await act(pending[1], 'post')).status).toBe(200);
    await simulate(app, user, { accountId: old, amount: 700 });

    const everything = (await Promise.all(accounts.map((id) => history(user, id)))).flat();
    expect(everything.length).toBeGreaterThan(50);
    // The user's and the API key's clients hold every account; the older account's client is not
    // sent the scenario's rows.
    const expected = [everything, everything, await history(user, old)];
    for (const [index, client] of clients.entries()) {
      await expect
        .poll(async () => {
          await follow(client.path, client.token, client.state, [7, 3, 200][index] ?? 7);
          return byId(client.state.held.values());
        })
        .toEqual(byId(expected[index] ?? []));
    }
  });

  it('expires cursors when the apply resets the world first', async () => {
    const user = await app.createUser();
    await simulate(app, user, { accountId: await openAccount(app, user), amount: 100 });
    const { nextCursor } = (await sync(user.accessToken)).body.data;
    const scenario = { version: 1, seed: 1, accounts: [{ key: 'a', name: 'A', openingBalance: 10_00 }] };
    const applied = await app.call('POST', '/v1/scenarios/apply', { token: user.accessToken, body: { scenario, reset: true } });
    expect(applied.status).toBe(200);
    const expired = await sync(user.accessToken, `?cursor=${nextCursor}`);
    expect([expired.status, expired.body.code]).toEqual([410, 'CURSOR_EXPIRED']);
    expect((await sync(user.accessToken)).body.data.added.map((txn: { amount: number }) => txn.amount)).toEqual([10_00]);
  });
});
