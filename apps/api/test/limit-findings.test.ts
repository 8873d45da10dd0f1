/**
 * Per-world limits that had a way around them (issue 46): a fork's kept webhooks, removed Plaid
 * Items, and Plaid Item webhooks outside LIMIT_WEBHOOKS.
 */
import { isAxiosError } from 'axios';
import { Products } from 'plaid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';
import { linkItem, plaidClientOf } from './plaid-calls.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ LIMIT_WEBHOOKS: '3' });
});
afterAll(() => app?.close());

const countWebhooks = async (userId: string) =>
  Number(
    (await app.db.query<{ n: string }>('select count(*) as n from webhooks where user_id = $1 and deleted_at is null', [userId]))
      .rows[0]?.n,
  );

/** The Plaid error a refused SDK call answered. */
async function plaidRefusal(call: Promise<unknown>): Promise<{ error_code: string; error_message: string }> {
  try {
    await call;
  } catch (error) {
    if (isAxiosError(error)) return error.response?.data as { error_code: string; error_message: string };
    throw error;
  }
  throw new Error('the call was not refused');
}

describe('limits without a way around them', () => {
  it('a fork refuses a snapshot that keeps more webhooks than LIMIT_WEBHOOKS allows now', async () => {
    // A snapshot taken under a higher limit (another process's configuration), forked under today's.
    const generous = await startTestApp({ LIMIT_WEBHOOKS: '5' }, { databaseUrl: app.databaseUrl });
    try {
      const user = await generous.createUser();
      for (let i = 0; i < 5; i++) {
        const res = await generous.call('POST', '/v1/webhooks', {
          token: user.accessToken,
          body: {
            url: `https://receiver.example/${i}`,
            secret: 'a-webhook-secret-of-16+',
            events: ['transaction.created'],
            clientId: 'app',
          },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
      const snapshot = await generous.call<{ data: { id: string } }>('POST', '/v1/sandbox/snapshots', {
        token: user.accessToken,
        body: { name: 'five webhooks', include: ['webhooks'] },
      });
      expect(snapshot.status).toBe(201);
      const worldsBefore = await app.db.query('select id from worlds where parent_id = $1', [user.id]);
      const fork = await app.call('POST', '/v1/worlds', { token: user.accessToken, body: { snapshotId: snapshot.body.data.id } });
      expect([fork.status, fork.body.code, fork.body.details?.[0]?.path]).toEqual([422, 'LIMIT_EXCEEDED', 'webhooks']);
      // Nothing was made.
      const worldsAfter = await app.db.query('select id from worlds where parent_id = $1', [user.id]);
      expect(worldsAfter.rowCount).toBe(worldsBefore.rowCount);
    } finally {
      await generous.close();
    }
  });

  it('removed Plaid Items stop counting toward the Item cap', async () => {
    const user = await app.createUser();
    await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Main' } });
    const client = await plaidClientOf(app, user);
    // The cap is 100 live Items: 100 made and removed, then one more still links.
    await app.db.query(
      `insert into plaid_items (id, user_id, public_token_hash, public_token_expires_at, account_ids, created_at, removed_at)
       select gen_random_uuid(), $1, md5(random()::text), now(), '{}', now(), now() from generate_series(1, 100)`,
      [user.id],
    );
    const linked = await linkItem(client);
    expect(linked.itemId).toBeTruthy();
  });

  it('a Plaid Item’s webhook counts toward LIMIT_WEBHOOKS, at creation and when set later', async () => {
    const user = await app.createUser();
    await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Main' } });
    const client = await plaidClientOf(app, user);
    const create = () =>
      client.sandboxPublicTokenCreate({
        institution_id: 'ins_sandbank',
        initial_products: [Products.Transactions],
        options: { webhook: 'https://receiver.example/plaid' },
      });
    // Three Items with webhooks fill LIMIT_WEBHOOKS (3); the fourth is refused in Plaid's shape.
    for (let i = 0; i < 3; i++) await create();
    const refused = await plaidRefusal(create());
    expect(refused.error_message).toContain('limit is 3');
    expect(await countWebhooks(user.id)).toBe(3);
    // An Item without one links, but cannot be given one while the limit is full; changing an existing one's URL can.
    const { accessToken } = await linkItem(client);
    const update = await plaidRefusal(
      client.itemWebhookUpdate({ access_token: accessToken, webhook: 'https://receiver.example/x' }),
    );
    expect(update.error_message).toContain('limit is 3');
    expect(await countWebhooks(user.id)).toBe(3);
    // Our own webhooks count the Items' too.
    const own = await app.call('POST', '/v1/webhooks', {
      token: user.accessToken,
      body: {
        url: 'https://receiver.example/own',
        secret: 'a-webhook-secret-of-16+',
        events: ['transaction.created'],
        clientId: 'app',
      },
    });
    expect([own.status, own.body.code]).toEqual([422, 'LIMIT_EXCEEDED']);
  });
});
