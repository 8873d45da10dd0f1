/**
 * SimpleFIN (SPEC §9) against the protocol's contract, over real HTTP: setup token → claim →
 * access URL; the 1.0 and 2.0 bodies field by field; money of every sign and size; the date
 * window's edges; pending only when asked; a pending transaction that posts keeps its id; a
 * revoked key, a used or unknown claim, another user's account; no secret in any log line.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

interface Connection {
  accessUrl: string;
  /** GET <access URL>/accounts<query>, with the credentials as Basic auth (as clients send them). */
  accounts: (query?: string) => Promise<{ status: number; body: any }>;
}

async function connect(user: TestUser): Promise<Connection & { setupToken: string; claimUrl: string }> {
  const created = await app.call('POST', '/v1/simplefin/setup-token', { token: user.accessToken, body: {} });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { setupToken, claimUrl } = created.body.data;
  const claimed = await fetch(claimPath(Buffer.from(setupToken, 'base64').toString()), { method: 'POST' });
  expect(claimed.status).toBe(200);
  expect(claimed.headers.get('content-type')).toMatch(/^text\/plain/);
  const accessUrl = await claimed.text();
  return { setupToken, claimUrl, accessUrl, accounts: (query = '') => accountsOf(accessUrl, query) };
}

/** The claim URL names the public host; the test server listens elsewhere: same path, our port. */
const claimPath = (claimUrl: string) => app.url + new URL(claimUrl).pathname;

async function accountsOf(accessUrl: string, query: string) {
  // Split the way Actual Budget does: on '//', '@' and ':', without decoding.
  const [, rest = ''] = accessUrl.split('//');
  const [auth = '', path = ''] = rest.split('@');
  const [user, password] = auth.split(':');
  const response = await fetch(`${app.url}${new URL(`http://${path}`).pathname}/accounts${query}`, {
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
  });
  const text = await response.text();
  return { status: response.status, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

describe('SimpleFIN', () => {
  it('connects with a setup token and serves the 1.0 account set field by field', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Konto');
    await simulate(app, user, { accountId, amount: 1_234_50, description: 'Wypłata', merchant: 'ACME' });
    await simulate(app, user, { accountId, amount: -5, description: 'Opłata' });
    const connection = await connect(user);
    expect(connection.accessUrl).toMatch(/^http:\/\/[0-9a-f-]{36}:sbk_[\w-]{43}@[^/]+\/simplefin$/);
    expect(Buffer.from(connection.setupToken, 'base64').toString()).toBe(connection.claimUrl);

    const { status, body } = await connection.accounts('?pending=1');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['accounts', 'errors']);
    expect(body.errors).toEqual([]);
    const [account] = body.accounts;
    expect(Object.keys(account).sort()).toEqual(
      ['available-balance', 'balance', 'balance-date', 'currency', 'holdings', 'id', 'name', 'org', 'transactions'].sort(),
    );
    expect(account).toMatchObject({
      id: accountId,
      name: 'Konto',
      currency: 'PLN',
      balance: '1234.45',
      'available-balance': '1234.45',
      holdings: [],
    });
    expect(account.org).toEqual({
      domain: expect.any(String),
      'sfin-url': expect.stringMatching(/\/simplefin$/),
      name: 'Sandbank',
      id: 'sandbank',
    });
    expect(Number.isInteger(account['balance-date'])).toBe(true);
    expect(account.transactions.map((t: any) => [t.amount, t.payee, t.description])).toEqual([
      ['1234.50', 'ACME', 'Wypłata'],
      ['-0.05', 'Opłata', 'Opłata'],
    ]);
    for (const transaction of account.transactions) {
      expect(Object.keys(transaction).sort()).toEqual(
        ['amount', 'description', 'id', 'memo', 'payee', 'pending', 'posted', 'transacted_at'].sort(),
      );
      expect(Number.isInteger(transaction.posted) && transaction.posted > 0).toBe(true);
      expect(Number.isInteger(transaction.transacted_at)).toBe(true);
      expect(transaction.pending).toBe(false);
    }
    const info = await fetch(`${app.url}/simplefin/info`);
    expect(await info.json()).toEqual({ versions: ['1.0', '2.0'] });
  });

  it('serves the 2.0 body with version=2, and only balances with balances-only=1', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Main');
    await simulate(app, user, { accountId, amount: 100 });
    const connection = await connect(user);
    const v2 = (await connection.accounts('?version=2')).body;
    expect(Object.keys(v2).sort()).toEqual(['accounts', 'connections', 'errlist']);
    expect(v2.errlist).toEqual([]);
    expect(v2.connections).toEqual([
      {
        conn_id: expect.stringMatching(/^CON-/),
        name: 'Sandbank',
        org_id: 'sandbank',
        org_url: expect.any(String),
        sfin_url: expect.stringMatching(/\/simplefin$/),
      },
    ]);
    expect(v2.accounts[0]).toMatchObject({ id: accountId, conn_id: v2.connections[0].conn_id, balance: '1.00' });
    expect(v2.accounts[0].org).toBeUndefined();
    const balancesOnly = (await connection.accounts('?balances-only=1')).body;
    expect(balancesOnly.accounts[0].transactions).toEqual([]);
    expect(balancesOnly.accounts[0].balance).toBe('1.00');
  });

  it('formats every amount with exactly two decimals, up to 10^13 minor units', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const amounts = [5, 100, 1_234_50, 1_000_000_000_000, -1_200, -5, -1, -999_999_999_999];
    for (const amount of amounts) expect((await simulate(app, user, { accountId, amount })).status).toBe(201);
    const { body } = await (await connect(user)).accounts();
    expect(body.accounts[0].transactions.map((t: any) => t.amount)).toEqual([
      '0.05',
      '1.00',
      '1234.50',
      '10000000000.00',
      '-12.00',
      '-0.05',
      '-0.01',
      '-9999999999.99',
    ]);
    const total = amounts.reduce((sum, amount) => sum + amount, 0);
    expect(body.accounts[0].balance).toBe(`${Math.floor(total / 100)}.${String(total % 100).padStart(2, '0')}`);
    // 10^13 minor units as a balance keeps every digit.
    await simulate(app, user, { accountId, amount: 1_000_000_000_000 });
    for (let i = 0; i < 8; i++) await simulate(app, user, { accountId, amount: 1_000_000_000_000 });
    const big = (await (await connect(user)).accounts('?balances-only=1')).body.accounts[0].balance;
    expect(big).toBe(`${Math.floor((total + 9e12) / 100)}.${String((total + 9e12) % 100).padStart(2, '0')}`);
  });

  it('keeps the window: start inclusive, end exclusive, in Unix seconds', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const at = (iso: string) => ({ accountId, amount: 100, date: iso, description: iso });
    for (const iso of ['2026-01-01T00:00:00.000Z', '2026-01-01T23:59:59.999Z', '2026-01-02T00:00:00.000Z']) {
      expect((await simulate(app, user, at(iso))).status).toBe(201);
    }
    const connection = await connect(user);
    const start = Date.parse('2026-01-01T00:00:00Z') / 1000;
    const end = Date.parse('2026-01-02T00:00:00Z') / 1000;
    const { body } = await connection.accounts(`?start-date=${start}&end-date=${end}`);
    expect(body.accounts[0].transactions.map((t: any) => t.description)).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T23:59:59.999Z',
    ]);
    const later = await connection.accounts(`?start-date=${end}`);
    expect(later.body.accounts[0].transactions.map((t: any) => t.description)).toEqual(['2026-01-02T00:00:00.000Z']);
    expect((await connection.accounts('?start-date=yesterday')).status).toBe(400);
  });

  it('includes pending only with pending=1, and a pending transaction that posts keeps its id', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await simulate(app, user, { accountId, amount: 100_00 });
    const card = (await simulate(app, user, { accountId, amount: -25_00, status: 'pending', merchant: 'Żabka' })).body.data
      .transaction;
    const connection = await connect(user);
    expect((await connection.accounts()).body.accounts[0].transactions).toHaveLength(1);
    const pending = (await connection.accounts('?pending=1')).body.accounts[0];
    expect(pending['available-balance']).toBe('75.00');
    expect(pending.balance).toBe('100.00');
    const held = pending.transactions.find((t: any) => t.id === card.id);
    expect(held).toMatchObject({ posted: 0, pending: true, amount: '-25.00', payee: 'Żabka' });
    expect(held.transacted_at).toBe(Math.floor(Date.parse(card.date) / 1000));

    const posted = await app.call('POST', `/v1/transactions/${card.id}/post`, { token: user.accessToken, body: {} });
    expect(posted.status).toBe(200);
    const after = (await connection.accounts('?pending=1')).body.accounts[0].transactions.find((t: any) => t.id === card.id);
    expect(after).toMatchObject({ pending: false, amount: '-25.00' });
    expect(after.posted).toBe(Math.floor(Date.parse(posted.body.data.transaction.postedAt) / 1000));
  });

  it('answers 403 to a used, unknown or malformed claim, a revoked key, bad credentials; never shows another user', async () => {
    const user = await app.createUser();
    const stranger = await app.createUser();
    const mine = await openAccount(app, user);
    const theirs = await openAccount(app, stranger);
    const connection = await connect(user);
    const reused = await fetch(claimPath(connection.claimUrl), { method: 'POST' });
    expect(reused.status).toBe(403);
    expect((await fetch(`${app.url}/simplefin/claim/${'A'.repeat(43)}`, { method: 'POST' })).status).toBe(403);
    expect((await fetch(`${app.url}/simplefin/claim/x`, { method: 'POST' })).status).toBe(403);

    const only = await connection.accounts(`?account=${theirs}&account=${mine}`);
    expect(only.body.accounts.map((a: any) => a.id)).toEqual([mine]);
    expect((await connection.accounts(`?account=${theirs}`)).body.accounts).toEqual([]);

    // Another user's id with this key, or no credentials at all: 403.
    const [, rest = ''] = connection.accessUrl.split('//');
    const password = rest.split('@')[0]?.split(':')[1] ?? '';
    const wrongUser = await fetch(`${app.url}/simplefin/accounts`, {
      headers: { authorization: `Basic ${Buffer.from(`${stranger.id}:${password}`).toString('base64')}` },
    });
    expect(wrongUser.status).toBe(403);
    expect((await fetch(`${app.url}/simplefin/accounts`)).status).toBe(403);

    // The key is listed as "SimpleFIN"; revoking it cuts the app off.
    const keys = (await app.call('GET', '/v1/api-keys', { token: user.accessToken })).body.data;
    const key = keys.find((listed: any) => listed.name === 'SimpleFIN');
    expect(key).toBeDefined();
    expect((await app.call('DELETE', `/v1/api-keys/${key.id}`, { token: user.accessToken })).status).toBeLessThan(300);
    expect((await connection.accounts()).status).toBe(403);

    // No secret reached the logs: not the claim code, not the key.
    const code = new URL(connection.claimUrl).pathname.split('/').pop() ?? '';
    const logs = app.logs.join('');
    expect(logs).not.toContain(code);
    expect(logs).not.toContain(password);
    expect(logs).toContain('/simplefin/claim/[redacted]');
  });

  it('expires a setup token after 7 days', async () => {
    const user = await app.createUser();
    const created = await app.call('POST', '/v1/simplefin/setup-token', { token: user.accessToken, body: {} });
    const expiresAt = Date.parse(created.body.data.expiresAt);
    expect(Math.abs(expiresAt - Date.now() - 7 * 86_400_000)).toBeLessThan(60_000);
    await app.db.query(`update simplefin_claims set expires_at = now() - interval '1 second' where user_id = $1`, [user.id]);
    expect((await fetch(claimPath(created.body.data.claimUrl), { method: 'POST' })).status).toBe(403);
  });
});
