/**
 * The world's Plaid Items as the console lists them (`GET /v1/plaid/items`, `DELETE /v1/plaid/items/{id}`),
 * with the Items made through the Plaid face by Plaid's official SDK: a linked Item, one whose public
 * token was never exchanged, a login reset and repaired; removing one here retires its access token
 * on the face; another user sees none of them and cannot remove them.
 */
import { openAccount } from '@sandbank/testing/fixtures';
import type { AxiosError } from 'axios';
import { Products } from 'plaid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { linkItem, plaidClientOf } from './plaid-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const listOf = async (user: TestUser, query = '') => {
  const res = await app.call('GET', `/v1/plaid/items${query}`, { token: user.accessToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: Record<string, unknown>[]; meta: { total: number; hasMore: boolean } };
};

describe('Plaid Items of the world', () => {
  it('lists linked, unexchanged and login-required Items, newest first, and removes one', async () => {
    const user = await app.createUser();
    const everyday = await openAccount(app, user, 'Codzienne');
    const savings = await openAccount(app, user, 'Oszczędności');
    const client = await plaidClientOf(app, user);
    expect((await listOf(user)).data).toEqual([]);

    const linked = await linkItem(client);
    await client.itemWebhookUpdate({ access_token: linked.accessToken, webhook: 'http://127.0.0.1:9/plaid-hook' });
    // A second Item whose public token the app never exchanged.
    await client.sandboxPublicTokenCreate({ institution_id: 'ins_sandbank', initial_products: [Products.Transactions] });

    const first = await listOf(user);
    expect(first.meta).toMatchObject({ total: 2, hasMore: false });
    const [waiting, good] = first.data;
    expect(waiting).toMatchObject({ status: 'awaiting_exchange', error: null, webhookUrl: null, removedAt: null });
    expect(good).toEqual({
      id: linked.itemId,
      institutionId: 'ins_sandbank',
      status: 'good',
      error: null,
      accounts: [
        { id: everyday, name: 'Codzienne' },
        { id: savings, name: 'Oszczędności' },
      ],
      webhookUrl: 'http://127.0.0.1:9/plaid-hook',
      webhookId: expect.any(String),
      consentedProducts: ['transactions'],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      removedAt: null,
    });
    // Its webhook is the `webhooks` row that delivers it (client id plaid), as GET /v1/webhooks shows it.
    const hooks = await app.call('GET', '/v1/webhooks?clientId=plaid', { token: user.accessToken });
    expect(hooks.body.data.map((hook: { id: string; url: string }) => [hook.id, hook.url])).toEqual([
      [good?.webhookId, 'http://127.0.0.1:9/plaid-hook'],
    ]);
    expect(waiting?.webhookId).toBeNull();
    expect((await listOf(user, '?limit=1&page=2')).data.map((item) => item.id)).toEqual([linked.itemId]);

    // The login reset on the face shows as the Item's error; the repair clears it.
    await client.sandboxItemResetLogin({ access_token: linked.accessToken });
    expect((await listOf(user)).data[1]).toMatchObject({ status: 'login_required', error: 'ITEM_LOGIN_REQUIRED' });
    const repaired = await fetch(`${app.url}/plaid/sandbox/item/repair`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: user.id, secret: await keyOf(user), access_token: linked.accessToken }),
    });
    expect(repaired.status).toBe(200);
    expect((await listOf(user)).data[1]).toMatchObject({ status: 'good', error: null });

    // Another user sees none of them and cannot remove one: 404, and the Item is untouched.
    const stranger = await app.createUser();
    expect((await listOf(stranger)).data).toEqual([]);
    const refused = await app.call('DELETE', `/v1/plaid/items/${linked.itemId}`, { token: stranger.accessToken });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('NOT_FOUND');
    expect((await client.itemGet({ access_token: linked.accessToken })).data.item.item_id).toBe(linked.itemId);

    // Removed here: the list says so, the face's access token stops working, a second removal is 404.
    const removed = await app.call('DELETE', `/v1/plaid/items/${linked.itemId}`, { token: user.accessToken });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.data).toMatchObject({
      id: linked.itemId,
      status: 'removed',
      error: null,
      webhookUrl: 'http://127.0.0.1:9/plaid-hook',
      webhookId: null,
    });
    expect(removed.body.data.removedAt).toEqual(expect.any(String));
    expect((await listOf(user)).data.map((item) => item.status)).toEqual(['awaiting_exchange', 'removed']);
    const gone = (await client.itemGet({ access_token: linked.accessToken }).then(
      () => null,
      (error: unknown) => error,
    )) as AxiosError<{ error_code: string }> | null;
    expect(gone?.response?.data.error_code).toBe('ITEM_NOT_FOUND');
    const { rows } = await app.db.query('select deleted_at from webhooks where plaid_item_id = $1', [linked.itemId]);
    expect(rows[0]?.deleted_at).not.toBeNull();
    expect((await app.call('DELETE', `/v1/plaid/items/${linked.itemId}`, { token: user.accessToken })).status).toBe(404);
  });

  it('requires and repairs an Item’s login from the console, as the SDK then sees it; refuses what cannot change', async () => {
    const user = await app.createUser();
    await openAccount(app, user, 'Codzienne');
    const client = await plaidClientOf(app, user);
    const linked = await linkItem(client);
    const post = (who: TestUser, id: string, action: string, body?: Record<string, unknown>) =>
      app.call('POST', `/v1/plaid/items/${id}/${action}`, { token: who.accessToken, ...(body ? { body } : {}) });
    const sdkError = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: AxiosError<{ error_code: string }>) => error.response?.data.error_code,
      );

    const reset = await post(user, linked.itemId, 'reset-login');
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body.data).toMatchObject({ id: linked.itemId, status: 'login_required', error: 'ITEM_LOGIN_REQUIRED' });
    // Plaid's SDK: the Item carries the error, and its data calls are refused until the repair.
    const item = (await client.itemGet({ access_token: linked.accessToken })).data.item;
    expect(item.error?.error_code).toBe('ITEM_LOGIN_REQUIRED');
    expect(await sdkError(client.transactionsSync({ access_token: linked.accessToken }))).toBe('ITEM_LOGIN_REQUIRED');
    expect((await post(user, linked.itemId, 'repair')).body.data).toMatchObject({ status: 'good', error: null });
    expect((await client.itemGet({ access_token: linked.accessToken })).data.item.error).toBeNull();
    expect((await client.transactionsSync({ access_token: linked.accessToken })).status).toBe(200);

    // Another user's Item is 404 and stays as it was; an Item without a webhook has nothing to fire (409).
    const stranger = await app.createUser();
    for (const action of ['reset-login', 'repair']) {
      const refused = await post(stranger, linked.itemId, action);
      expect([refused.status, refused.body.code]).toEqual([404, 'NOT_FOUND']);
    }
    expect((await post(stranger, linked.itemId, 'fire-webhook', { code: 'DEFAULT_UPDATE' })).status).toBe(404);
    expect((await client.itemGet({ access_token: linked.accessToken })).data.item.error).toBeNull();
    const nowhere = await post(user, linked.itemId, 'fire-webhook', { code: 'DEFAULT_UPDATE' });
    expect([nowhere.status, nowhere.body.code]).toEqual([409, 'CONFLICT']);

    // An Item whose public token was never exchanged has no login yet: 409; a removed one is 404.
    await client.sandboxPublicTokenCreate({ institution_id: 'ins_sandbank', initial_products: [Products.Transactions] });
    const waiting = (await listOf(user)).data[0];
    expect(waiting?.status).toBe('awaiting_exchange');
    const early = await post(user, String(waiting?.id), 'reset-login');
    expect([early.status, early.body.code]).toEqual([409, 'CONFLICT']);
    expect((await app.call('DELETE', `/v1/plaid/items/${linked.itemId}`, { token: user.accessToken })).status).toBe(200);
    expect((await post(user, linked.itemId, 'reset-login')).status).toBe(404);
    expect((await listOf(user)).data.map((listed) => listed.status)).toEqual(['awaiting_exchange', 'removed']);
  });
});

/** A fresh API key of the user, for a raw call to the face (Sandbank's `/sandbox/item/repair` is not in Plaid's SDK). */
async function keyOf(user: TestUser): Promise<string> {
  const created = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'raw' } });
  return created.body.data.key as string;
}
