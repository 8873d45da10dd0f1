/**
 * Plaid webhooks end to end: an Item linked with a webhook URL gets `SYNC_UPDATES_AVAILABLE` from a
 * real worker after a change in its accounts (not after one in an account outside the Item), the
 * sandbox calls' ITEM and TRANSACTIONS webhooks, and each verifies with `jose` exactly as Plaid's
 * docs tell receivers to: the JWT's `kid` → `/webhook_verification_key/get` → ES256 signature, `iat`
 * at most 5 minutes old, `request_body_sha256` equal to the SHA-256 of the raw body. A tampered body
 * fails the check. The deliveries are in the webhook's delivery log like ours.
 */
import { createHash } from 'node:crypto';
import { rotatePlaidSigningKey } from '@sandbank/core';
import { waitUntil } from '@sandbank/testing';
import type { Loose } from '@sandbank/testing/fixtures';
import { decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Received } from './receiver.ts';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

let stack: DeliveryStack;
beforeAll(async () => {
  stack = await startDeliveryStack();
});
afterAll(() => stack?.close());

async function plaid(path: string, credentials: Record<string, string>, body: Record<string, unknown>): Promise<Loose> {
  const response = await fetch(`${stack.url}/plaid${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...credentials },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}

/** Verifies a delivery as Plaid's docs say, and returns its body; throws if it does not verify. */
async function verifyPlaidWebhook(request: Received, credentials: Record<string, string>): Promise<Record<string, unknown>> {
  const token = String(request.headers['plaid-verification']);
  const { alg, kid } = decodeProtectedHeader(token);
  if (alg !== 'ES256') throw new Error(`unexpected alg ${alg}`);
  const { key } = await plaid('/webhook_verification_key/get', credentials, { key_id: kid });
  // Plaid's docs: a key whose expired_at is set is not to be trusted.
  if (key.expired_at !== null) throw new Error('the key has expired');
  const { payload } = await jwtVerify(token, await importJWK(key as JWK, 'ES256'), { maxTokenAge: '5 min' });
  const hash = createHash('sha256').update(request.rawBody).digest('hex');
  if (payload.request_body_sha256 !== hash) throw new Error('body hash does not match');
  return JSON.parse(request.rawBody);
}

describe('Plaid webhooks', () => {
  it('delivers SYNC_UPDATES_AVAILABLE and the sandbox webhooks, signed as Plaid signs them', async () => {
    const user = await stack.createUser();
    const open = (name: string) => stack.call('POST', '/v1/accounts', { token: user.token, body: { name } });
    const accountId = (await open('Konto')).body.data.id;
    const key = (await stack.call('POST', '/v1/api-keys', { token: user.token, body: { name: 'Plaid' } })).body.data.key;
    const credentials = { 'PLAID-CLIENT-ID': user.id, 'PLAID-SECRET': key };
    const { public_token } = await plaid('/sandbox/public_token/create', credentials, {
      institution_id: 'ins_sandbank',
      initial_products: ['transactions'],
      options: { webhook: `${stack.receiver.url}/plaid-hook` },
    });
    const { access_token, item_id } = await plaid('/item/public_token/exchange', credentials, { public_token });
    const outside = (await open('Outside the Item')).body.data.id;

    // A change outside the Item sends nothing; one inside it sends SYNC_UPDATES_AVAILABLE.
    const simulate = (account: string) =>
      stack.call('POST', '/v1/simulations/transaction', { token: user.token, body: { accountId: account, amount: 10_00 } });
    expect((await simulate(outside)).status).toBe(201);
    expect((await simulate(accountId)).status).toBe(201);
    const [first] = await stack.receiver.waitFor(1);
    if (!first) throw new Error('no delivery');
    expect(first.path).toBe('/plaid-hook');
    expect(await verifyPlaidWebhook(first, credentials)).toEqual({
      webhook_type: 'TRANSACTIONS',
      webhook_code: 'SYNC_UPDATES_AVAILABLE',
      item_id,
      environment: 'sandbox',
      initial_update_complete: true,
      historical_update_complete: true,
    });
    const { payload } = await jwtVerify(
      String(first.headers['plaid-verification']),
      await importJWK(
        (
          await plaid('/webhook_verification_key/get', credentials, {
            key_id: decodeProtectedHeader(String(first.headers['plaid-verification'])).kid,
          })
        ).key,
        'ES256',
      ),
    );
    expect(Math.abs(Number(payload.iat) - first.receivedAt / 1000)).toBeLessThan(300);
    // A body changed on the way does not verify.
    await expect(
      verifyPlaidWebhook({ ...first, rawBody: first.rawBody.replace('sandbox', 'production') }, credentials),
    ).rejects.toThrow('body hash');

    // reset_login → ITEM: ERROR; the sandbox repair → ITEM: LOGIN_REPAIRED; fire_webhook → what it asks for.
    await plaid('/sandbox/item/reset_login', credentials, { access_token });
    await plaid('/sandbox/item/repair', credentials, { access_token });
    await plaid('/sandbox/item/fire_webhook', credentials, { access_token, webhook_code: 'DEFAULT_UPDATE' });
    const all = await stack.receiver.waitFor(4);
    const bodies = await Promise.all(all.slice(1).map((request) => verifyPlaidWebhook(request, credentials)));
    expect(bodies.map((body) => `${body.webhook_type}: ${body.webhook_code}`).sort()).toEqual(
      ['ITEM: ERROR', 'ITEM: LOGIN_REPAIRED', 'TRANSACTIONS: DEFAULT_UPDATE'].sort(),
    );
    expect(bodies.find((body) => body.webhook_code === 'ERROR')?.error).toMatchObject({ error_code: 'ITEM_LOGIN_REQUIRED' });
    expect(bodies.every((body) => body.item_id === item_id)).toBe(true);

    // The deliveries are in the Item webhook's delivery log, as ours are; the other account's event made none.
    const { rows } = await stack.db.query(
      `select d.status from webhook_deliveries d join webhooks w on w.id = d.webhook_id where w.plaid_item_id = $1`,
      [item_id],
    );
    await waitUntil(async () => {
      const { rows: done } = await stack.db.query(
        `select count(*)::int as n from webhook_deliveries d join webhooks w on w.id = d.webhook_id
          where w.plaid_item_id = $1 and d.status = 'succeeded'`,
        [item_id],
      );
      return done[0].n === 4;
    });
    expect(rows).toHaveLength(4);
    // The API lists them too (the Item's own notifications as `plaid.webhook`), as the console's deliveries page shows them.
    const hook = await stack.db.query<{ id: string }>('select id from webhooks where plaid_item_id = $1', [item_id]);
    const listed = await stack.call('GET', `/v1/webhooks/${hook.rows[0]?.id}/deliveries`, { token: user.token });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((delivery: { eventType: string }) => delivery.eventType).sort()).toEqual([
      'plaid.webhook',
      'plaid.webhook',
      'plaid.webhook',
      'transaction.created',
    ]);
    // Our own event log does not show the face's notifications.
    const events = await stack.call('GET', '/v1/events?limit=100', { token: user.token });
    expect(events.body.data.map((event: { type: string }) => event.type)).toEqual(['transaction.created', 'transaction.created']);
  });

  it('sends the same webhooks for the console’s calls (REST), once per change, and only to an Item with a URL', async () => {
    const user = await stack.createUser();
    await stack.call('POST', '/v1/accounts', { token: user.token, body: { name: 'Konto' } });
    const key = (await stack.call('POST', '/v1/api-keys', { token: user.token, body: { name: 'Plaid' } })).body.data.key;
    const credentials = { 'PLAID-CLIENT-ID': user.id, 'PLAID-SECRET': key };
    const { public_token } = await plaid('/sandbox/public_token/create', credentials, {
      institution_id: 'ins_sandbank',
      initial_products: ['transactions'],
      options: { webhook: `${stack.receiver.url}/console-hook` },
    });
    const { access_token, item_id } = await plaid('/item/public_token/exchange', credentials, { public_token });
    const post = (path: string, body?: Record<string, unknown>) =>
      stack.call('POST', `/v1/plaid/items/${item_id}/${path}`, { token: user.token, ...(body ? { body } : {}) });

    // Two resets racing, then a repair twice: one ERROR and one LOGIN_REPAIRED, whatever the order the calls land in.
    const resets = await Promise.all([post('reset-login'), post('reset-login')]);
    expect(resets.map((res) => [res.status, res.body.data.status])).toEqual([
      [200, 'login_required'],
      [200, 'login_required'],
    ]);
    // The face sees it: the Item's calls answer ITEM_LOGIN_REQUIRED.
    const refused = await fetch(`${stack.url}/plaid/transactions/sync`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...credentials },
      body: JSON.stringify({ access_token }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error_code: string }).error_code).toBe('ITEM_LOGIN_REQUIRED');
    expect((await post('repair')).body.data).toMatchObject({ status: 'good', error: null });
    expect((await post('repair')).status).toBe(200);
    const fired = await post('fire-webhook', { code: 'NEW_ACCOUNTS_AVAILABLE' });
    expect(fired.status, JSON.stringify(fired.body)).toBe(202);
    expect(fired.body.data).toEqual({ itemId: item_id, webhookType: 'ITEM', webhookCode: 'NEW_ACCOUNTS_AVAILABLE' });

    const mine = () => stack.receiver.received.filter((request) => request.path === '/console-hook');
    await waitUntil(async () => mine().length >= 3);
    const bodies = await Promise.all(mine().map((request) => verifyPlaidWebhook(request, credentials)));
    // Each webhook's deliveries run in parallel, so they may arrive in any order.
    expect(bodies.map((body) => `${body.webhook_type}: ${body.webhook_code}`).sort()).toEqual([
      'ITEM: ERROR',
      'ITEM: LOGIN_REPAIRED',
      'ITEM: NEW_ACCOUNTS_AVAILABLE',
    ]);
    expect(bodies.find((body) => body.webhook_code === 'ERROR')?.error).toMatchObject({
      error_code: 'ITEM_LOGIN_REQUIRED',
      error_type: 'ITEM_ERROR',
    });
    const { rows } = await stack.db.query(
      `select count(*)::int as n from events where type = 'plaid.webhook' and payload->>'item_id' = $1`,
      [item_id],
    );
    expect(rows[0].n).toBe(3);

    // Without a webhook URL there is nothing to fire to (409, nothing recorded); an unknown code is refused by the contract.
    await plaid('/item/webhook/update', credentials, { access_token, webhook: null });
    const nowhere = await post('fire-webhook', { code: 'DEFAULT_UPDATE' });
    expect([nowhere.status, nowhere.body.code]).toEqual([409, 'CONFLICT']);
    expect((await post('fire-webhook', { code: 'USER_PERMISSION_REVOKED' })).status).toBe(400);
    const after = await stack.db.query(
      `select count(*)::int as n from events where type = 'plaid.webhook' and payload->>'item_id' = $1`,
      [item_id],
    );
    expect(after.rows[0].n).toBe(3);
  });

  it('rotates the signing key: a new kid signs, the old one verifies what it signed until it expires', async () => {
    const user = await stack.createUser();
    const accountId = (await stack.call('POST', '/v1/accounts', { token: user.token, body: { name: 'Konto' } })).body.data.id;
    const key = (await stack.call('POST', '/v1/api-keys', { token: user.token, body: { name: 'Plaid' } })).body.data.key;
    const credentials = { 'PLAID-CLIENT-ID': user.id, 'PLAID-SECRET': key };
    const { public_token } = await plaid('/sandbox/public_token/create', credentials, {
      institution_id: 'ins_sandbank',
      initial_products: ['transactions'],
      options: { webhook: `${stack.receiver.url}/rotation-hook` },
    });
    await plaid('/item/public_token/exchange', credentials, { public_token });
    const simulate = () =>
      stack.call('POST', '/v1/simulations/transaction', { token: user.token, body: { accountId, amount: 10_00 } });
    const received = async (count: number) =>
      stack.receiver.received.filter((request) => request.path === '/rotation-hook').slice(0, count);
    const kidOf = (request: Received) => decodeProtectedHeader(String(request.headers['plaid-verification'])).kid;

    expect((await simulate()).status).toBe(201);
    const [before] = await waitUntil(async () => {
      const hooks = await received(1);
      return hooks.length === 1 ? hooks : null;
    });
    if (!before) throw new Error('no delivery');
    const oldKid = kidOf(before);

    const rotated = await rotatePlaidSigningKey(stack.deps.orm.em.fork(), stack.deps.secrets, { overlapSeconds: 600 });
    expect(rotated.previous).toBe(oldKid);
    expect(rotated.kid).not.toBe(oldKid);
    // The webhook signed before the rotation still verifies: the old key is served, not yet expired.
    expect((await verifyPlaidWebhook(before, credentials)).webhook_code).toBe('SYNC_UPDATES_AVAILABLE');
    const old = await plaid('/webhook_verification_key/get', credentials, { key_id: oldKid });
    expect(old.key).toMatchObject({ kid: oldKid, expired_at: null });
    expect(old.key).not.toHaveProperty('d');

    // What is signed now carries the new kid and verifies with the new key.
    expect((await simulate()).status).toBe(201);
    const [, after] = await waitUntil(async () => {
      const hooks = await received(2);
      return hooks.length === 2 ? hooks : null;
    });
    if (!after) throw new Error('no second delivery');
    expect(kidOf(after)).toBe(rotated.kid);
    expect((await verifyPlaidWebhook(after, credentials)).webhook_code).toBe('SYNC_UPDATES_AVAILABLE');

    // Once the overlap has passed (moved back here rather than waited for), the old key shows its
    // expired_at and Plaid's receivers reject what it signed; the new key is unaffected.
    await stack.db.query(
      `update plaid_signing_keys set retired_at = now() - interval '20 minutes', expired_at = now() - interval '10 minutes'
        where kid = $1`,
      [oldKid],
    );
    const expired = await plaid('/webhook_verification_key/get', credentials, { key_id: oldKid });
    expect(expired.key.expired_at).toBeGreaterThan(0);
    expect(expired.key.expired_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    await expect(verifyPlaidWebhook(before, credentials)).rejects.toThrow('expired');
    expect((await verifyPlaidWebhook(after, credentials)).webhook_code).toBe('SYNC_UPDATES_AVAILABLE');
  });
});
