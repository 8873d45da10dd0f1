/**
 * Snapshots that keep webhooks and API keys when asked (`include`), over real HTTP against real
 * PostgreSQL: a fork gets each kept webhook (URL, events, client id, status, faults) and API key
 * (name, relative dates) anew, with fresh secrets shown once in its answer — never a usable copy of
 * the parent's; two forks get different ones; deleted webhooks and revoked keys are not kept; without
 * the option nothing is kept or copied. (The worker delivering a child's copy, signed with its own
 * secret: apps/worker/test/world-webhooks.test.ts.)
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { openSecret } from '@sandbank/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, startTestApp, type TestApp, type TestUser } from './helpers.ts';

const DAY = 86_400_000;
const PARENT_SECRET = 'whsec-parent-secret-0123456789';

let app: TestApp;
let parent: TestUser;
let parentKey: { id: string; key: string };
beforeAll(async () => {
  app = await startTestApp();
  parent = await app.createUser();
  const account = await openAccount(app, parent, 'Główne');
  await simulate(app, parent, { accountId: account, amount: 10_000, description: 'Start' });
  const token = parent.accessToken;
  const clockNow = Date.parse((await app.call('GET', '/v1/clock', { token })).body.data.now);
  const key = await app.call('POST', '/v1/api-keys', {
    token,
    body: { name: 'CI', expiresAt: new Date(clockNow + 30 * DAY).toISOString() },
  });
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  parentKey = key.body.data;
  const revoked = await app.call('POST', '/v1/api-keys', { token, body: { name: 'old' } });
  expect((await app.call('DELETE', `/v1/api-keys/${revoked.body.data.id}`, { token })).status).toBeLessThan(300);
  const hook = await registerWebhook(parent, 'https://budget.example.com/hooks/sandbank', 'budget-app');
  const faults = { failure: { rate: 0.5, status: 503 }, seed: 'abc123' };
  expect((await app.call('PATCH', `/v1/webhooks/${hook}`, { token, body: { faults } })).status).toBe(200);
  const gone = await registerWebhook(parent, 'https://budget.example.com/hooks/old', 'budget-app');
  expect((await app.call('DELETE', `/v1/webhooks/${gone}`, { token })).status).toBeLessThan(300);
});
afterAll(() => app.close());

async function registerWebhook(user: TestUser, url: string, clientId: string): Promise<string> {
  const res = await app.call('POST', '/v1/webhooks', {
    token: user.accessToken,
    body: { url, secret: PARENT_SECRET, events: ['transaction.created', 'transaction.updated'], clientId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

const takeSnapshot = async (body: Record<string, unknown>) => {
  const res = await app.call('POST', '/v1/sandbox/snapshots', { token: parent.accessToken, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const fork = async (snapshotId: string) => {
  const res = await app.call('POST', '/v1/worlds', { token: parent.accessToken, body: { snapshotId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

describe('include', () => {
  it('without it, a snapshot keeps no webhook and no key, and a fork gets none (only its own World key)', async () => {
    const snapshot = await takeSnapshot({ name: 'plain' });
    expect(snapshot).toMatchObject({ accounts: 1, transactions: 1, webhooks: 0, apiKeys: 0, include: [] });
    const child = await fork(snapshot.id);
    expect(child.webhooks).toEqual([]);
    expect(child.apiKeys).toEqual([]);
    const token = child.accessToken;
    expect((await app.call('GET', '/v1/webhooks', { token })).body.data).toEqual([]);
    expect((await app.call('GET', '/v1/api-keys', { token })).body.data.map((key: { name: string }) => key.name)).toEqual([
      'World',
    ]);
  });

  it('keeps webhooks and keys without secrets; each fork gets fresh ones of the same shape, shown once', async () => {
    const snapshot = await takeSnapshot({ name: 'with credentials', include: ['webhooks', 'apiKeys'] });
    expect(snapshot).toMatchObject({ webhooks: 1, apiKeys: 1 });
    const [kept] = (await app.db.query('select * from world_snapshot_webhooks where snapshot_id = $1', [snapshot.id])).rows;
    expect(Object.keys(kept).some((column) => column.includes('secret'))).toBe(false);

    const first = await fork(snapshot.id);
    const second = await fork(snapshot.id);
    for (const child of [first, second]) {
      expect(child.webhooks).toEqual([
        {
          id: expect.any(String),
          url: 'https://budget.example.com/hooks/sandbank',
          events: ['transaction.created', 'transaction.updated'],
          clientId: 'budget-app',
          status: 'active',
          secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        },
      ]);
      expect(child.apiKeys).toEqual([
        {
          id: expect.any(String),
          name: 'CI',
          prefix: child.apiKeys[0].key.slice(0, 12),
          createdAt: expect.any(String),
          expiresAt: expect.any(String),
          key: expect.stringMatching(/^sbk_[\w-]{43}$/),
        },
      ]);
      expect(child.webhooks[0].secret).not.toBe(PARENT_SECRET);
      expect(child.apiKeys[0].key).not.toBe(parentKey.key);
      // The webhook's faults came along; the secret stored is the new one (sealed), never returned.
      const read = await app.call('GET', `/v1/webhooks/${child.webhooks[0].id}`, { token: child.accessToken });
      expect(read.body.data).toMatchObject({ faults: { failure: { rate: 0.5, status: 503 }, seed: 'abc123' } });
      expect(JSON.stringify(read.body)).not.toContain(child.webhooks[0].secret);
      const [row] = (
        await app.db.query('select secret_ciphertext, secret_key_id from webhooks where id = $1', [child.webhooks[0].id])
      ).rows;
      const opened = openSecret({ ciphertext: row.secret_ciphertext, keyId: row.secret_key_id }, app.deps.secrets.encryptionKeys);
      expect(opened).toBe(child.webhooks[0].secret);
      // The expiry stays as far ahead of the world's clock as the parent's was (30 days).
      const clockNow = Date.parse((await app.call('GET', '/v1/clock', { token: child.accessToken })).body.data.now);
      expect(Math.abs(Date.parse(child.apiKeys[0].expiresAt) - (clockNow + 30 * DAY))).toBeLessThan(60_000);
    }
    expect(first.webhooks[0].secret).not.toBe(second.webhooks[0].secret);
    expect(first.apiKeys[0].key).not.toBe(second.apiKeys[0].key);
    expect(first.webhooks[0].id).not.toBe(second.webhooks[0].id);

    // The fresh key is the child's: it reads the child's owner, and the parent's key is not one of the child's.
    const pull = (owner: string, key: string) => app.call('GET', `/api/owner/${owner}/transactions`, { token: key });
    expect((await pull(first.world.id, first.apiKeys[0].key)).status).toBe(200);
    const parentHashes = (await app.db.query('select key_hash from api_keys where user_id = $1', [parent.id])).rows;
    const childHashes = (await app.db.query('select key_hash from api_keys where user_id = $1', [first.world.id])).rows;
    expect(childHashes).toHaveLength(2); // its World key and the copy of CI
    for (const { key_hash } of parentHashes) expect(childHashes.map((row) => row.key_hash)).not.toContain(key_hash);
    const keys = (await app.call('GET', '/v1/api-keys', { token: first.accessToken })).body.data;
    expect(keys.map((key: { name: string }) => key.name).sort()).toEqual(['CI', 'World']);
  });

  it('keeps only what it names', async () => {
    const snapshot = await takeSnapshot({ name: 'webhooks only', include: ['webhooks'] });
    expect(snapshot).toMatchObject({ webhooks: 1, apiKeys: 0, include: ['webhooks'] });
    // What it was asked to keep, in one order, whatever the request's; read back alike.
    const both = await takeSnapshot({ name: 'both', include: ['apiKeys', 'webhooks'] });
    expect(both.include).toEqual(['webhooks', 'apiKeys']);
    const read = await app.call('GET', `/v1/sandbox/snapshots/${both.id}`, { token: parent.accessToken });
    expect(read.body.data.include).toEqual(['webhooks', 'apiKeys']);
    const child = await fork(snapshot.id);
    expect([child.webhooks.length, child.apiKeys.length]).toEqual([1, 0]);
  });

  it('a scenario’s webhooks are kept too, with fresh secrets in every fork', async () => {
    const scenario = {
      version: 1,
      seed: 3,
      accounts: [{ key: 'main', name: 'Konto', openingBalance: 1_000 }],
      webhooks: [
        { url: 'https://budget.example.com/hooks/x', secret: PARENT_SECRET, events: ['transaction.created'], clientId: 'x' },
      ],
    };
    const snapshot = await takeSnapshot({ name: 'scenario', scenario, include: ['webhooks'] });
    expect(snapshot).toMatchObject({ accounts: 1, webhooks: 1, apiKeys: 0 });
    const child = await fork(snapshot.id);
    expect(child.webhooks[0]).toMatchObject({ url: 'https://budget.example.com/hooks/x', clientId: 'x' });
    expect(child.webhooks[0].secret).not.toBe(PARENT_SECRET);
  });

  it('refuses unknown kinds, repeats and API keys of a scenario (400)', async () => {
    const call = (body: Record<string, unknown>) =>
      app.call('POST', '/v1/sandbox/snapshots', { token: parent.accessToken, body });
    expectRefusal(await call({ name: 'x', include: ['sessions'] }), [400, 'VALIDATION_ERROR', 'include.0']);
    expectRefusal(await call({ name: 'x', include: ['webhooks', 'webhooks'] }), [400, 'VALIDATION_ERROR', 'include']);
    const scenario = { version: 1, seed: 1, accounts: [{ key: 'a', name: 'A' }] };
    expectRefusal(await call({ name: 'x', scenario, include: ['apiKeys'] }), [400, 'VALIDATION_ERROR', 'include']);
  });

  it('a restore keeps the world’s own webhooks and keys as they are', async () => {
    const snapshot = await takeSnapshot({ name: 'for restore', include: ['webhooks', 'apiKeys'] });
    const count = async () =>
      (
        await app.db.query(
          `select (select count(*) from webhooks where user_id = $1)::int as w, (select count(*) from api_keys where user_id = $1)::int as k`,
          [parent.id],
        )
      ).rows[0];
    const before = await count();
    const res = await app.call('POST', '/v1/sandbox/restore', { token: parent.accessToken, body: { snapshotId: snapshot.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await count()).toEqual(before);
  });
});

describe('kept API keys and LIMIT_API_KEYS', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ LIMIT_API_KEYS: '3' });
  });
  afterAll(() => limited.close());

  it('the kept keys that are active and the world’s own must fit; past the limit the fork is refused and leaves nothing', async () => {
    const user = await limited.createUser();
    const token = user.accessToken;
    const now = Date.parse((await limited.call('GET', '/v1/clock', { token })).body.data.now);
    const newKey = async (name: string, expiresInMs?: number) => {
      const body = { name, ...(expiresInMs ? { expiresAt: new Date(now + expiresInMs).toISOString() } : {}) };
      const res = await limited.call('POST', '/v1/api-keys', { token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    const snapshotOf = async (name: string) => {
      const res = await limited.call('POST', '/v1/sandbox/snapshots', { token, body: { name, include: ['apiKeys'] } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as string;
    };
    const forkOf = (snapshotId: string) => limited.call('POST', '/v1/worlds', { token, body: { snapshotId } });
    const rows = async () =>
      (await limited.db.query('select (select count(*) from users)::int as users, (select count(*) from api_keys)::int as keys'))
        .rows[0];

    // Two active keys kept, and the world's own: exactly the limit.
    await newKey('CI');
    await newKey('short', DAY);
    const two = await forkOf(await snapshotOf('two keys'));
    expect(two.status, JSON.stringify(two.body)).toBe(201);
    expect(two.body.data.apiKeys).toHaveLength(2);
    const inChild = await limited.call('POST', '/v1/api-keys', { token: two.body.data.accessToken, body: { name: 'more' } });
    expectRefusal(inChild, [422, 'LIMIT_EXCEEDED', 'apiKeys']);

    // The parent at its limit, every key kept: with the world's own key one over, so refused, and nothing written.
    await newKey('third');
    const full = await snapshotOf('three keys');
    const before = await rows();
    expectRefusal(await forkOf(full), [422, 'LIMIT_EXCEEDED', 'apiKeys']);
    expect(await rows()).toEqual(before);

    // A kept key that had expired stays expired in the child and does not count.
    expect((await limited.call('POST', '/v1/clock/advance', { token, body: { by: 'P2D' } })).status).toBe(200);
    const withExpired = await forkOf(await snapshotOf('one expired'));
    expect(withExpired.status, JSON.stringify(withExpired.body)).toBe(201);
    expect(withExpired.body.data.apiKeys).toHaveLength(3);
  });
});
