/**
 * Bad input to the Plaid face, through Plaid's SDK where it can send it (raw HTTP where it cannot):
 * each is Plaid's error (shape checked against Plaid's OpenAPI document, code, HTTP status), and
 * nothing in the world or the Items changed.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import type { AxiosError } from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { linkItem, plaidClientOf } from './plaid-calls.ts';
import { expectPlaidError, expectPlaidResponse } from './plaid-openapi.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

/** The Plaid error a call failed with: its HTTP status and body (the SDK throws an AxiosError). */
async function refusal(call: Promise<unknown>, code: string, status = 400) {
  const error = (await call.then(
    () => null,
    (thrown: unknown) => thrown,
  )) as AxiosError | null;
  expect(error, `expected ${code}`).not.toBeNull();
  expect(error?.response?.status).toBe(status);
  expectPlaidError(error?.response?.data, code);
  return error?.response?.data as { request_id: string; error_message: string };
}

/** Everything a refused call could have changed: the user's Items, events and transactions. */
async function worldOf(user: TestUser) {
  const { rows } = await app.db.query(
    `select (select json_agg(i order by id) from plaid_items i where user_id = $1) as items,
            (select count(*) from events where user_id = $1) as events,
            (select json_agg(t order by id) from transactions t where user_id = $1) as transactions`,
    [user.id],
  );
  return rows[0];
}

/** The user's API keys and when each was last used. */
const keysOf = async (user: TestUser) =>
  (await app.db.query('select id, last_used_at from api_keys where user_id = $1 order by id', [user.id])).rows;

async function linkedUser() {
  const user = await app.createUser();
  const accountId = await openAccount(app, user);
  await simulate(app, user, { accountId, amount: 100_00 });
  const client = await plaidClientOf(app, user);
  return { user, accountId, client, ...(await linkItem(client)) };
}

const raw = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/plaid${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('Plaid face: bad input', () => {
  it('refuses bad credentials, another user’s token, a removed Item, bad cursors and counts, and changes nothing', async () => {
    const a = await linkedUser();
    const b = await linkedUser();
    const bKey = (await app.call('POST', '/v1/api-keys', { token: b.user.accessToken, body: { name: 'B' } })).body.data.key;
    const before = await worldOf(a.user);
    const bKeys = await keysOf(b.user);

    // A wrong secret; a real key of another user under this client_id.
    await refusal(
      (await plaidClientOf(app, a.user, 'sbk_not-a-real-key')).itemGet({ access_token: a.accessToken }),
      'INVALID_API_KEYS',
    );
    await refusal((await plaidClientOf(app, a.user, bKey)).itemGet({ access_token: a.accessToken }), 'INVALID_API_KEYS');
    // B's key, refused under A's client_id, is not marked used.
    expect(await keysOf(b.user)).toEqual(bKeys);
    // Another user's access token, with valid credentials of one's own.
    await refusal(b.client.transactionsSync({ access_token: a.accessToken }), 'INVALID_ACCESS_TOKEN');
    await refusal(b.client.itemRemove({ access_token: a.accessToken }), 'INVALID_ACCESS_TOKEN');
    // A malformed cursor; count 0 and 501.
    const malformed = await refusal(
      a.client.transactionsSync({ access_token: a.accessToken, cursor: 'not-a-cursor' }),
      'INVALID_FIELD',
    );
    expect(malformed.error_message).toMatch(/cursor/);
    await refusal(a.client.transactionsSync({ access_token: a.accessToken, count: 0 }), 'INVALID_FIELD');
    await refusal(a.client.transactionsSync({ access_token: a.accessToken, count: 501 }), 'INVALID_FIELD');
    // Things the SDK would not send: bad JSON, missing credentials, an unknown field, an unknown path.
    const credentials = { 'PLAID-CLIENT-ID': a.user.id, 'PLAID-SECRET': bKey };
    for (const [response, code, status] of [
      [await raw('/item/get', '{"access_token":', credentials), 'INVALID_BODY', 400],
      // Nested deeper than the host's bound (32): refused before it is parsed, in Plaid's shape.
      [await raw('/item/get', `{"access_token":${'['.repeat(6_000)}${']'.repeat(6_000)}}`, credentials), 'INVALID_BODY', 400],
      [await raw('/item/get', JSON.stringify({ access_token: a.accessToken })), 'MISSING_FIELDS', 400],
      [
        await raw('/item/get', JSON.stringify({ access_token: a.accessToken, surprise: 1 }), credentials),
        'INVALID_API_KEYS',
        400,
      ],
      [await raw('/no/such/endpoint', '{}', credentials), 'NOT_FOUND', 404],
    ] as const) {
      expect(response.status).toBe(status);
      expectPlaidError(await response.json(), code);
    }
    const aKey = (await app.call('POST', '/v1/api-keys', { token: a.user.accessToken, body: { name: 'A2' } })).body.data.key;
    const unknown = await raw('/item/get', JSON.stringify({ access_token: a.accessToken, surprise: 1 }), {
      'PLAID-CLIENT-ID': a.user.id,
      'PLAID-SECRET': aKey,
    });
    expectPlaidError(await unknown.json(), 'UNKNOWN_FIELDS');
    // A public token is exchanged once; Sandbank is the only institution.
    await refusal(a.client.itemPublicTokenExchange({ public_token: 'public-sandbox-unknown' }), 'INVALID_PUBLIC_TOKEN');
    await refusal(
      a.client.sandboxPublicTokenCreate({ institution_id: 'ins_109508', initial_products: ['transactions' as never] }),
      'INVALID_INSTITUTION',
    );
    expect(await worldOf(a.user)).toEqual(before);

    // A removed Item answers ITEM_NOT_FOUND from then on, its removal included.
    expectPlaidResponse('/item/remove', (await a.client.itemRemove({ access_token: a.accessToken })).data);
    await refusal(a.client.accountsGet({ access_token: a.accessToken }), 'ITEM_NOT_FOUND');
    await refusal(a.client.transactionsSync({ access_token: a.accessToken }), 'ITEM_NOT_FOUND');
    await refusal(a.client.itemRemove({ access_token: a.accessToken }), 'ITEM_NOT_FOUND');
    // B's Item is untouched.
    expectPlaidResponse('/item/get', (await b.client.itemGet({ access_token: b.accessToken })).data);
  });

  it('exchanges a public token once, however many exchanges race for it', async () => {
    const user = await app.createUser();
    await openAccount(app, user);
    const client = await plaidClientOf(app, user);
    const { data } = await client.sandboxPublicTokenCreate({
      institution_id: 'ins_sandbank',
      initial_products: ['transactions' as never],
    });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => client.itemPublicTokenExchange({ public_token: data.public_token })),
    );
    const won = results.filter((result) => result.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expectPlaidError((result.reason as AxiosError).response?.data, 'INVALID_PUBLIC_TOKEN');
    }
    const { rows } = await app.db.query(
      'select count(*)::int as n from plaid_items where user_id = $1 and access_token_hash is not null',
      [user.id],
    );
    expect(rows[0].n).toBe(1);
  });

  it('keeps an Item in ITEM_LOGIN_REQUIRED after reset_login until it is repaired', async () => {
    const { client, accessToken } = await linkedUser();
    const reset = await client.sandboxItemResetLogin({ access_token: accessToken });
    expectPlaidResponse('/sandbox/item/reset_login', reset.data);
    expect(reset.data.reset_login).toBe(true);
    await refusal(client.transactionsSync({ access_token: accessToken }), 'ITEM_LOGIN_REQUIRED');
    await refusal(client.accountsGet({ access_token: accessToken }), 'ITEM_LOGIN_REQUIRED');
    const item = await client.itemGet({ access_token: accessToken });
    expectPlaidResponse('/item/get', item.data);
    expect(item.data.item.error).toMatchObject({ error_type: 'ITEM_ERROR', error_code: 'ITEM_LOGIN_REQUIRED' });
    // Sandbank's stand-in for Link's update mode (the SDK has no method for it: the call is Sandbank's).
    const { status } = await app.call('POST', '/plaid/sandbox/item/repair', {
      body: { access_token: accessToken },
      headers: (client as unknown as { configuration: { baseOptions: { headers: Record<string, string> } } }).configuration
        .baseOptions.headers,
    });
    expect(status).toBe(200);
    expectPlaidResponse('/transactions/sync', (await client.transactionsSync({ access_token: accessToken })).data);
    expect((await client.itemGet({ access_token: accessToken })).data.item.error).toBeNull();
  });

  it('refuses a cursor issued before a sandbox reset with INVALID_FIELD', async () => {
    const { user, client, accessToken } = await linkedUser();
    const { data } = await client.transactionsSync({ access_token: accessToken });
    expect((await app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } })).status).toBe(
      200,
    );
    const refused = await refusal(
      client.transactionsSync({ access_token: accessToken, cursor: data.next_cursor }),
      'INVALID_FIELD',
    );
    expect(refused.error_message).toMatch(/reset/);
  });
});

describe('Plaid face: rate limits', () => {
  it('answers RATE_LIMIT_EXCEEDED per credential, in Plaid’s shape', async () => {
    const limited = await startTestApp({ RATE_LIMIT_API_KEY: '3/60' });
    try {
      const user = await limited.createUser();
      const client = await plaidClientOf(limited, user);
      const { accessToken } = await linkItem(client); // two calls
      await client.itemGet({ access_token: accessToken });
      const error = (await client.itemGet({ access_token: accessToken }).catch((thrown: unknown) => thrown)) as AxiosError;
      expect(error.response?.status).toBe(429);
      expectPlaidError(error.response?.data, 'RATE_LIMIT');
      expect(error.response?.data).toMatchObject({ error_type: 'RATE_LIMIT_EXCEEDED' });
      expect(error.response?.headers['retry-after']).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });

  it('answers the per-IP limit on /plaid in Plaid’s shape too', async () => {
    const limited = await startTestApp({ RATE_LIMIT_IP: '2/60' });
    try {
      const send = () =>
        fetch(`${limited.url}/plaid/item/get`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect((await send()).status).toBe(400);
      expect((await send()).status).toBe(400);
      const refused = await send();
      expect(refused.status).toBe(429);
      expectPlaidError(await refused.json(), 'RATE_LIMIT');
    } finally {
      await limited.close();
    }
  });
});
