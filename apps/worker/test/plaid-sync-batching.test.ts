/**
 * SYNC_UPDATES_AVAILABLE in bursts: several bookings in an Item's accounts relayed together make one
 * delivery to the Item's webhook (not one per booking), while the same user's own webhook still gets
 * one per event; a later burst makes one more; the sandbox's own Plaid notifications are never
 * merged. The relay runs alone (no worker), so the deliveries it creates stay to be counted.
 */

import { insertTransactionEvent, type Loose } from '@sandbank/testing/fixtures';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayBatch } from '../src/relay.ts';
import { type Stack, startStack } from './stack.ts';

let stack: Stack;
let pool: pg.Pool;
beforeAll(async () => {
  stack = await startStack();
  pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
});
afterAll(async () => {
  await pool?.end();
  await stack?.close();
});

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

async function drain() {
  for (;;) if ((await relayBatch(pool)).events === 0) return;
}

const deliveries = async (webhookId: string) =>
  (await stack.db.query('select count(*)::int as n from webhook_deliveries where webhook_id = $1', [webhookId])).rows[0].n;

describe('Plaid SYNC_UPDATES_AVAILABLE batching', () => {
  it('sends one webhook per Item for a burst of bookings, one per event to our own webhooks', async () => {
    const user = await stack.createUser();
    const open = async (name: string) =>
      (await stack.call('POST', '/v1/accounts', { token: user.token, body: { name } })).body.data.id;
    const [first, second] = [await open('Konto'), await open('Oszczędności')];
    const key = (await stack.call('POST', '/v1/api-keys', { token: user.token, body: { name: 'Plaid' } })).body.data.key;
    const credentials = { 'PLAID-CLIENT-ID': user.id, 'PLAID-SECRET': key };
    const { public_token } = await plaid('/sandbox/public_token/create', credentials, {
      institution_id: 'ins_sandbank',
      initial_products: ['transactions'],
      options: { webhook: 'http://127.0.0.1:9/plaid-hook' },
    });
    const { access_token, item_id } = await plaid('/item/public_token/exchange', credentials, { public_token });
    const own = await stack.createWebhook(user.token, 'http://127.0.0.1:9/own', 'whsec-batching-0123456789abcdef');
    const { rows } = await stack.db.query('select id from webhooks where plaid_item_id = $1', [item_id]);
    const itemHook = rows[0].id as string;
    await drain();

    // A burst: six bookings in both of the Item's accounts, committed before the relay's pass.
    for (let i = 0; i < 6; i++) await insertTransactionEvent(stack.db, { accountId: i % 2 ? first : second });
    await drain();
    expect(await deliveries(itemHook)).toBe(1);
    expect(await deliveries(own.id)).toBe(6);

    // The next burst is another webhook; a notification the sandbox fires is one of its own.
    for (let i = 0; i < 3; i++) await insertTransactionEvent(stack.db, { accountId: first });
    await plaid('/sandbox/item/fire_webhook', credentials, { access_token, webhook_code: 'DEFAULT_UPDATE' });
    await plaid('/sandbox/item/fire_webhook', credentials, { access_token, webhook_code: 'SYNC_UPDATES_AVAILABLE' });
    await drain();
    expect(await deliveries(itemHook)).toBe(4);
    expect(await deliveries(own.id)).toBe(9);
    const { rows: kinds } = await stack.db.query(
      `select e.type, count(*)::int as n from webhook_deliveries d join events e on e.id = d.event_id
        where d.webhook_id = $1 group by e.type order by e.type`,
      [itemHook],
    );
    expect(kinds).toEqual([
      { type: 'plaid.webhook', n: 2 },
      { type: 'transaction.created', n: 2 },
    ]);
  });
});
