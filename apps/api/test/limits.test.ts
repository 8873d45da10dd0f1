/**
 * Limits per user (issue 11): webhooks, active API keys and open accounts, configurable, answered
 * with 422 LIMIT_EXCEEDED. Enforced without a race: more parallel creations than the limit end with
 * exactly the limit created. A freed slot (a closed account, a revoked key, a deleted webhook) can
 * be used again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

const LIMIT = 3;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ LIMIT_WEBHOOKS: String(LIMIT), LIMIT_API_KEYS: String(LIMIT), LIMIT_OPEN_ACCOUNTS: String(LIMIT) });
});
afterAll(() => app.close());

const bodies = {
  accounts: (i: number) => ({ name: `Account ${i}` }),
  'api-keys': (i: number) => ({ name: `Key ${i}` }),
  webhooks: (i: number) => ({
    url: `http://127.0.0.1:9/hook/${i}`,
    secret: 'whsec-limits-0123456789',
    events: ['transaction.created'],
    clientId: 'limits',
  }),
};

async function race(user: TestUser, resource: keyof typeof bodies, count: number) {
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      app.call('POST', `/v1/${resource}`, { token: user.accessToken, body: bodies[resource](i) }),
    ),
  );
  return results;
}

describe('limits per user', () => {
  for (const resource of Object.keys(bodies) as (keyof typeof bodies)[]) {
    it(`${resource}: ${LIMIT + 5} parallel creations make exactly ${LIMIT}; the rest are 422 LIMIT_EXCEEDED`, async () => {
      const user = await app.createUser();
      const results = await race(user, resource, LIMIT + 5);
      expect(results.filter((res) => res.status === 201)).toHaveLength(LIMIT);
      const refused = results.filter((res) => res.status !== 201);
      expect(refused.map((res) => [res.status, res.body.code])).toEqual(Array.from({ length: 5 }, () => [422, 'LIMIT_EXCEEDED']));
      expect(refused[0]?.body.message).toContain(`the limit is ${LIMIT}`);
      // Another user is not affected.
      const other = await app.createUser();
      expect((await race(other, resource, 1))[0]?.status).toBe(201);
    });
  }

  it('frees a slot when an account closes, a key is revoked or a webhook is deleted', async () => {
    const user = await app.createUser();
    const accounts = await race(user, 'accounts', LIMIT);
    const keys = await race(user, 'api-keys', LIMIT);
    const hooks = await race(user, 'webhooks', LIMIT);
    const closeBody = { name: 'Account 0', password: 'correct-horse-battery' };
    const zero = accounts.find((res) => res.body.data.name === 'Account 0');
    expect(
      (await app.call('POST', `/v1/accounts/${zero?.body.data.id}/close`, { token: user.accessToken, body: closeBody })).status,
    ).toBe(200);
    expect((await app.call('DELETE', `/v1/api-keys/${keys[0]?.body.data.id}`, { token: user.accessToken })).status).toBeLessThan(
      300,
    );
    expect((await app.call('DELETE', `/v1/webhooks/${hooks[0]?.body.data.id}`, { token: user.accessToken })).status).toBeLessThan(
      300,
    );
    for (const resource of Object.keys(bodies) as (keyof typeof bodies)[]) {
      expect((await app.call('POST', `/v1/${resource}`, { token: user.accessToken, body: bodies[resource](99) })).status).toBe(
        201,
      );
    }
  });

  it('frees a key’s slot once it has expired in its world (the clock it expires on)', async () => {
    const user = await app.createUser();
    const now = (await app.call('GET', '/v1/clock', { token: user.accessToken })).body.data.now;
    const expiresAt = new Date(new Date(now).getTime() + 86_400_000).toISOString();
    for (let i = 0; i < LIMIT; i++) {
      const created = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: `Day ${i}`, expiresAt } });
      expect(created.status).toBe(201);
    }
    const full = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'One more' } });
    expect([full.status, full.body.code]).toEqual([422, 'LIMIT_EXCEEDED']);
    expect((await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { by: 'P2D' } })).status).toBe(200);
    const freed = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'One more' } });
    expect(freed.status, JSON.stringify(freed.body)).toBe(201);
  });

  it('counts a scenario’s accounts too', async () => {
    const user = await app.createUser();
    const scenario = {
      version: 1,
      seed: 1,
      accounts: Array.from({ length: LIMIT + 1 }, (_, i) => ({ key: `k${i}`, name: `S${i}` })),
    };
    const res = await app.call('POST', '/v1/scenarios/apply', { token: user.accessToken, body: { scenario } });
    expect([res.status, res.body.code]).toEqual([422, 'LIMIT_EXCEEDED']);
  });
});
