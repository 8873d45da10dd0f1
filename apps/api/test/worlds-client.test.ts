/**
 * `withWorld` and `ensureSnapshot` of `@sandbank/client` against the real server, as a budgeting app's
 * suite uses them (docs/guides/testing-your-app.md): the snapshot made once and found again by name,
 * a fresh world per test with its session, typed REST client and API key, removed after the test whether it
 * passed or threw, twenty at once.
 */
import { ensureSnapshot, SandbankError, withWorld } from '@sandbank/client';
import { createTrpcClient } from '@sandbank/client/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Output, startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
let options: { baseUrl: string; credential: string };
beforeAll(async () => {
  app = await startTestApp();
  const parent = await app.createUser();
  const key = await app.call('POST', '/v1/api-keys', { token: parent.accessToken, body: { name: 'CI' } });
  options = { baseUrl: app.url, credential: key.body.data.key };
});
afterAll(() => app.close());

const scenario = {
  version: 1,
  seed: 11,
  accounts: [
    {
      key: 'main',
      name: 'Konto osobiste',
      openingBalance: 300_000,
      history: { months: 3, profile: 'family' },
      transactions: [{ at: '-PT2H', amount: -4_599, description: 'Orlen', status: 'pending', settleAfter: 'P2D' }],
    },
  ],
};

const worldExists = async (id: string) =>
  (await app.call('GET', `/v1/worlds/${id}`, { headers: { authorization: `Bearer ${options.credential}` } })).status === 200;

describe('withWorld', () => {
  it('ensureSnapshot makes the snapshot once, finds it again by name, and makes it anew when asked', async () => {
    const first = await ensureSnapshot({ ...options, name: 'family-v1', scenario });
    expect(first.transactions).toBeGreaterThan(50);
    expect((await ensureSnapshot({ ...options, name: 'family-v1', scenario })).id).toBe(first.id);
    const fresh = await ensureSnapshot({ ...options, name: 'family-v1', scenario, fresh: true });
    expect(fresh.id).not.toBe(first.id);
    const names = (
      await app.call<Output['worlds']['listSnapshots']>('GET', '/v1/sandbox/snapshots', {
        headers: { authorization: `Bearer ${options.credential}` },
      })
    ).body;
    expect(names.data.map((snapshot) => snapshot.id)).toEqual([fresh.id]);
  });

  it('ensureSnapshot reuses a snapshot of the name only when it keeps the same include; another is replaced', async () => {
    const small = { version: 1, seed: 5, accounts: [{ key: 'main', name: 'Konto', openingBalance: 1_000 }] };
    const hooked = {
      ...small,
      webhooks: [
        {
          url: 'https://budget.example.com/h',
          secret: 'whsec-scenario-0123456789',
          events: ['transaction.created'],
          clientId: 'app',
        },
      ],
    };
    const named = async (name: string) =>
      (
        await app.call<Output['worlds']['listSnapshots']>('GET', '/v1/sandbox/snapshots', {
          headers: { authorization: `Bearer ${options.credential}` },
        })
      ).body.data.filter((snapshot) => snapshot.name === name);

    // Made without webhooks; the suite then asks for them: a new snapshot that keeps them replaces it.
    const plain = await ensureSnapshot({ ...options, name: 'hooks-v1', scenario: hooked });
    expect(plain).toMatchObject({ webhooks: 0, include: [] });
    const withHooks = await ensureSnapshot({ ...options, name: 'hooks-v1', scenario: hooked, include: ['webhooks'] });
    expect(withHooks.id).not.toBe(plain.id);
    expect(withHooks).toMatchObject({ webhooks: 1, include: ['webhooks'] });
    expect((await named('hooks-v1')).map((snapshot) => snapshot.id)).toEqual([withHooks.id]);
    const again = await ensureSnapshot({ ...options, name: 'hooks-v1', scenario: hooked, include: ['webhooks'] });
    expect(again.id).toBe(withHooks.id);
    // And back: asked for without webhooks, it is not handed the one that keeps them.
    const without = await ensureSnapshot({ ...options, name: 'hooks-v1', scenario: hooked });
    expect(without).toMatchObject({ webhooks: 0, include: [] });
    expect((await named('hooks-v1')).map((snapshot) => snapshot.id)).toEqual([without.id]);

    // What was asked decides, not what there was: webhooks asked of a world without any is still that snapshot.
    const none = await ensureSnapshot({ ...options, name: 'no-hooks-v1', scenario: small, include: ['webhooks'] });
    expect(none).toMatchObject({ webhooks: 0, include: ['webhooks'] });
    expect((await ensureSnapshot({ ...options, name: 'no-hooks-v1', scenario: small, include: ['webhooks'] })).id).toBe(none.id);
    expect((await ensureSnapshot({ ...options, name: 'no-hooks-v1', scenario: small })).id).not.toBe(none.id);

    // The order of the kinds does not matter.
    const own = await ensureSnapshot({ ...options, name: 'own-v1', include: ['apiKeys', 'webhooks'] });
    expect(own).toMatchObject({ apiKeys: 1, include: ['webhooks', 'apiKeys'] });
    expect((await ensureSnapshot({ ...options, name: 'own-v1', include: ['webhooks', 'apiKeys'] })).id).toBe(own.id);
    for (const name of ['hooks-v1', 'no-hooks-v1', 'own-v1']) {
      for (const { id } of await named(name)) {
        await app.call('DELETE', `/v1/sandbox/snapshots/${id}`, { headers: { authorization: `Bearer ${options.credential}` } });
      }
    }
  });

  it('hands a world with typed clients and its own key, and removes it afterwards', async () => {
    const snapshot = await ensureSnapshot({ ...options, name: 'family-v1', scenario });
    let id = '';
    const balance = await withWorld(
      snapshot,
      async (world) => {
        id = world.id;
        const accounts = await world.rest.GET('/v1/accounts');
        const main = accounts.data?.data[0];
        expect(main?.heldAmount).toBeGreaterThanOrEqual(4_599); // the Orlen hold, and the history's own
        const booked = await world.rest.POST('/v1/simulations/transaction', {
          body: { accountId: main?.id ?? '', amount: -1_000, description: 'Żabka' },
        });
        expect(booked.response.status).toBe(201);
        // Inside this repo, the tRPC client takes the world's session too.
        expect((await createTrpcClient(world.session).accounts.listAccounts.query({})).data).toHaveLength(1);
        const pulled = await fetch(`${world.baseUrl}/api/owner/${world.id}/transactions`, {
          headers: { authorization: `Bearer ${world.apiKey.key}` },
        });
        expect(pulled.status).toBe(200);
        return booked.data?.data.balance;
      },
      options,
    );
    expect(balance).toBeGreaterThan(0);
    expect(await worldExists(id)).toBe(false);
  });

  it('removes the world when the test throws, and passes the error on', async () => {
    const snapshot = await ensureSnapshot({ ...options, name: 'family-v1', scenario });
    let id = '';
    await expect(
      withWorld(
        snapshot.id,
        async (world) => {
          id = world.id;
          throw new Error('the assertion failed');
        },
        options,
      ),
    ).rejects.toThrow('the assertion failed');
    expect(id).not.toBe('');
    expect(await worldExists(id)).toBe(false);
  });

  it('twenty worlds at once: each its own, none left behind', async () => {
    const snapshot = await ensureSnapshot({ ...options, name: 'family-v1', scenario });
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        withWorld(
          snapshot,
          async (world) => {
            const [account] = (await world.rest.GET('/v1/accounts')).data?.data ?? [];
            // Each test changes its world; no other world sees it.
            await world.rest.POST('/v1/simulations/transaction', {
              body: { accountId: account?.id ?? '', amount: -(i + 1), description: `test ${i}` },
            });
            const after = (await world.rest.GET('/v1/accounts/{id}', { params: { path: { id: account?.id ?? '' } } })).data?.data;
            expect(after?.balance).toBe((account?.balance ?? 0) - (i + 1));
            return world.id;
          },
          options,
        ),
      ),
    );
    expect(new Set(ids).size).toBe(20);
    const listed = await app.call('GET', '/v1/worlds', { headers: { authorization: `Bearer ${options.credential}` } });
    expect(listed.body.meta.total).toBe(0);
  });

  it('a world from a scenario, and refusals as SandbankError', async () => {
    const names = await withWorld(
      scenario,
      async (world) => (await world.rest.GET('/v1/accounts')).data?.data.map((a) => a.name),
      options,
    );
    expect(names).toEqual(['Konto osobiste']);
    const refused = withWorld('0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d', async () => 'never', options);
    await expect(refused).rejects.toBeInstanceOf(SandbankError);
    await expect(refused).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    await expect(withWorld('x', async () => 'never', { ...options, credential: 'sbk_nope' })).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
  });

  it('a snapshot that keeps webhooks hands each world its own copy, with its own secret', async () => {
    const hooked = {
      ...scenario,
      webhooks: [
        {
          url: 'https://budget.example.com/hooks',
          secret: 'whsec-scenario-0123456789',
          events: ['transaction.created'],
          clientId: 'app',
        },
      ],
    };
    const snapshot = await ensureSnapshot({ ...options, name: 'family-hooks-v1', scenario: hooked, include: ['webhooks'] });
    expect(snapshot).toMatchObject({ webhooks: 1, apiKeys: 0 });
    const [first, second] = await Promise.all(
      [1, 2].map(() =>
        withWorld(
          snapshot,
          async (world) => {
            const listed = (await world.rest.GET('/v1/webhooks')).data?.data ?? [];
            expect(listed.map((webhook) => webhook.id)).toEqual(world.webhooks.map((webhook) => webhook.id));
            expect(world.apiKeys).toEqual([]);
            return world.webhooks[0];
          },
          options,
        ),
      ),
    );
    expect(first).toMatchObject({
      url: 'https://budget.example.com/hooks',
      clientId: 'app',
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(first?.secret).not.toBe(second?.secret);
    expect(first?.secret).not.toBe('whsec-scenario-0123456789');
  });
});
