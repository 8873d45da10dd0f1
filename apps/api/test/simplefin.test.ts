/**
 * SimpleFIN (docs/faces/simplefin.md) against the protocol's contract, over real HTTP: setup token → claim →
 * access URL; the 1.0 and 2.0 bodies field by field; money of every sign and size; the date
 * window's edges; pending only when asked; a pending transaction that posts keeps its id; a
 * revoked key, a used or unknown claim, another user's account; no secret in any log line; each
 * account's IBAN and BIC in its `extra`.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Loose, type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

interface Connection {
  accessUrl: string;
  /** GET <access URL>/accounts<query>, with the credentials as Basic auth (as clients send them). */
  accounts: (query?: string) => Promise<{ status: number; body: Loose }>;
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

/** ISO 13616: the IBAN with its first four characters moved to the end, letters as 10–35, is 1 mod 97. */
function ibanChecksumValid(iban: string): boolean {
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  return BigInt(digits) % 97n === 1n;
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
      [
        'available-balance',
        'balance',
        'balance-date',
        'currency',
        'extra',
        'holdings',
        'id',
        'name',
        'org',
        'transactions',
      ].sort(),
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
    expect(account.transactions.map((t: Loose) => [t.amount, t.payee, t.description])).toEqual([
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

  it('serves the 2.0 body with version=2 field by field, and only balances with balances-only=1', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Main');
    await simulate(app, user, { accountId, amount: 100, description: 'Wpłata' });
    await simulate(app, user, { accountId, amount: -25, status: 'pending', merchant: 'Żabka', description: 'ŻABKA Z1' });
    const connection = await connect(user);
    const v2 = (await connection.accounts('?version=2&pending=1')).body;
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
    const [account] = v2.accounts;
    expect(Object.keys(account).sort()).toEqual(
      [
        'available-balance',
        'balance',
        'balance-date',
        'conn_id',
        'currency',
        'extra',
        'holdings',
        'id',
        'name',
        'transactions',
      ].sort(),
    );
    expect(account).toMatchObject({
      id: accountId,
      name: 'Main',
      conn_id: v2.connections[0].conn_id,
      currency: 'PLN',
      balance: '1.00',
      'available-balance': '0.75',
      holdings: [],
    });
    expect(Number.isInteger(account['balance-date'])).toBe(true);
    const [posted, pending] = account.transactions;
    for (const transaction of account.transactions) {
      expect(Object.keys(transaction).sort()).toEqual(
        ['amount', 'description', 'id', 'memo', 'payee', 'pending', 'posted', 'transacted_at'].sort(),
      );
      expect(typeof transaction.id).toBe('string');
      expect(typeof transaction.memo).toBe('string');
      expect(Number.isInteger(transaction.transacted_at)).toBe(true);
    }
    expect(posted).toMatchObject({ amount: '1.00', description: 'Wpłata', payee: 'Wpłata', pending: false });
    expect(posted.posted).toBeGreaterThan(0);
    expect(pending).toMatchObject({ amount: '-0.25', description: 'ŻABKA Z1', payee: 'Żabka', pending: true, posted: 0 });

    // version=1 (or 1.0) is the 1.0 body, like no version at all; an unknown version is refused.
    for (const query of ['', '?version=1', '?version=1.0']) {
      expect(Object.keys((await connection.accounts(query)).body).sort(), query).toEqual(['accounts', 'errors']);
    }
    expect(Object.keys((await connection.accounts('?version=2.0')).body).sort()).toEqual(['accounts', 'connections', 'errlist']);
    for (const query of ['?version=3', '?version=constructor', '?version=2&version=2']) {
      expect((await connection.accounts(query)).status, query).toBe(400);
    }

    // balances-only: every account keeps its balances and an empty transactions array, in both versions.
    for (const query of ['?balances-only=1&pending=1', '?balances-only=1&pending=1&version=2']) {
      const [only] = (await connection.accounts(query)).body.accounts;
      expect(only.transactions).toEqual([]);
      expect(only.holdings).toEqual([]);
      expect(only.balance).toBe('1.00');
      expect(only['available-balance']).toBe('0.75');
    }
  });

  it("carries each account's IBAN and BIC in extra, the same as the main API's, in both versions", async () => {
    const user = await app.createUser();
    const first = await openAccount(app, user, 'Konto');
    const second = await openAccount(app, user, 'Oszczędności');
    const connection = await connect(user);
    const expected = new Map<string, unknown>();
    for (const id of [first, second]) {
      const { body } = await app.call('GET', `/v1/accounts/${id}`, { token: user.accessToken });
      expect(body.data.iban).toMatch(/^PL\d{26}$/);
      expect(ibanChecksumValid(body.data.iban), body.data.iban).toBe(true);
      expected.set(id, { iban: body.data.iban, bic: body.data.bic });
    }
    expect(new Set([...expected.values()].map((extra: Loose) => extra.iban)).size).toBe(2);
    for (const query of ['', '?version=2', '?balances-only=1']) {
      const { body } = await connection.accounts(query);
      expect(
        body.accounts.map((account: Loose) => [account.id, account.extra]),
        query,
      ).toEqual([first, second].map((id) => [id, expected.get(id)]));
      expect(body.accounts[0].extra.bic, query).toBe('SNDBPLP0');
    }
  });

  it('formats every amount with exactly two decimals, up to 10^13 minor units', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const amounts = [5, 100, 1_234_50, 1_000_000_000_000, -1_200, -5, -1, -999_999_999_999];
    for (const amount of amounts) expect((await simulate(app, user, { accountId, amount })).status).toBe(201);
    const { body } = await (await connect(user)).accounts();
    expect(body.accounts[0].transactions.map((t: Loose) => t.amount)).toEqual([
      '0.05',
      '1.00',
      '1234.50',
      '10000000000.00',
      '-12.00',
      '-0.05',
      '-0.01',
      '-9999999999.99',
    ]);
    expect(amounts.reduce((sum, amount) => sum + amount, 0)).toBe(122_350);
    expect(body.accounts[0].balance).toBe('1223.50');
  });

  it('formats balances of 10^13 minor units and pending debits exactly, in both versions', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    for (let i = 0; i < 10; i++) expect((await simulate(app, user, { accountId, amount: 1_000_000_000_000 })).status).toBe(201);
    expect((await simulate(app, user, { accountId, amount: -1_000_000_000_000 })).status).toBe(201);
    expect((await simulate(app, user, { accountId, amount: 1_000_000_000_000 })).status).toBe(201);
    expect((await simulate(app, user, { accountId, amount: -5, status: 'pending' })).status).toBe(201);
    const connection = await connect(user);
    for (const query of ['?pending=1', '?pending=1&version=2']) {
      const [account] = (await connection.accounts(query)).body.accounts;
      expect(account.balance).toBe('100000000000.00'); // 10^13 minor units
      expect(account['available-balance']).toBe('99999999999.95');
      expect(account.transactions.map((t: Loose) => t.amount)).toEqual([
        ...Array(10).fill('10000000000.00'),
        '-10000000000.00',
        '10000000000.00',
        '-0.05',
      ]);
    }
  });

  it('gives EUR, JPY and KWD accounts their currency and its places (none for JPY, three for KWD)', async () => {
    const user = await app.createUser();
    const expected: Record<string, { amounts: string[]; balance: string }> = {
      EUR: { amounts: ['10000000000.00', '0.01', '-0.05'], balance: '9999999999.96' },
      JPY: { amounts: ['1000000000000', '1', '-5'], balance: '999999999996' },
      KWD: { amounts: ['1000000000.000', '0.001', '-0.005'], balance: '999999999.996' },
    };
    for (const currency of Object.keys(expected)) {
      const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: currency, currency } });
      expect(res.status).toBe(201);
      for (const amount of [1_000_000_000_000, 1, -5]) {
        expect((await simulate(app, user, { accountId: res.body.data.id, amount })).status).toBe(201);
      }
    }
    const connection = await connect(user);
    for (const query of ['', '?version=2']) {
      const { body } = await connection.accounts(query);
      const seen = Object.fromEntries(
        body.accounts.map((account: Loose) => [
          account.currency,
          { amounts: account.transactions.map((t: Loose) => t.amount), balance: account.balance },
        ]),
      );
      expect(seen).toEqual(expected);
    }
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
    expect(body.accounts[0].transactions.map((t: Loose) => t.description)).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T23:59:59.999Z',
    ]);
    const later = await connection.accounts(`?start-date=${end}`);
    expect(later.body.accounts[0].transactions.map((t: Loose) => t.description)).toEqual(['2026-01-02T00:00:00.000Z']);
    expect((await connection.accounts('?start-date=yesterday')).status).toBe(400);
    // Fractions of a second (Actual divides milliseconds by 1000) are exact at our millisecond precision.
    const edge = '2026-01-01T23:59:59.999Z';
    const descriptions = async (query: string) =>
      (await connection.accounts(query)).body.accounts[0].transactions.map((t: Loose) => t.description);
    expect(await descriptions(`?start-date=${end - 0.001}&end-date=${end}`)).toEqual([edge]);
    expect(await descriptions(`?start-date=${end - 0.0009}&end-date=${end}`)).toEqual([]);
    expect(await descriptions(`?start-date=${start}&end-date=${end - 0.001}`)).toEqual(['2026-01-01T00:00:00.000Z']);
    expect(await descriptions(`?start-date=${start}&end-date=${end - 0.0009}`)).toEqual(['2026-01-01T00:00:00.000Z', edge]);
    expect(await descriptions('?start-date=0&end-date=99999999999')).toHaveLength(3);
    for (const bad of ['?end-date=-1', '?end-date=999999999999', '?start-date=1e9', '?start-date=1&start-date=2']) {
      const refused = await connection.accounts(bad);
      expect(refused.status, bad).toBe(400);
      expect(typeof refused.body).toBe('string');
    }
  });

  it('lists at most 10,000 transactions per account and says so in the errors, in both versions', async () => {
    const user = await app.createUser();
    const big = await openAccount(app, user, 'Big');
    const small = await openAccount(app, user, 'Small');
    await simulate(app, user, { accountId: small, amount: 1_00, description: 'one' });
    // 10,001 posted rows, one a minute back from a day ago (the ledger's own columns, as a booking writes them).
    await app.db.query(
      `insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, posted_at)
       select gen_random_uuid(), $1, $2, 'bulk_' || i, 100, 'PLN', now() - interval '1 day' - i * interval '1 minute',
              'bulk ' || i, '{"source":"sandbank-simulator"}', now() - interval '1 day' - i * interval '1 minute'
         from generate_series(1, 10001) as i`,
      [big, user.id],
    );
    await app.db.query(
      'update accounts set (balance, transaction_count) = (select sum(amount), count(*) from transactions where account_id = $1) where id = $1',
      [big],
    );
    const connection = await connect(user);
    const v1 = await connection.accounts();
    expect(v1.status).toBe(200);
    const [bigV1, smallV1] = v1.body.accounts;
    expect(bigV1.transactions).toHaveLength(10_000);
    // The newest 10,000: bulk 1 … bulk 10000, oldest first; bulk 10001 is left out and reported.
    expect([bigV1.transactions[0].description, bigV1.transactions.at(-1).description]).toEqual(['bulk 10000', 'bulk 1']);
    expect(smallV1.transactions).toHaveLength(1);
    expect(v1.body.errors).toEqual([
      'Big: only the newest 10,000 transactions of this window are listed; ask with an earlier end-date for the rest',
    ]);
    const v2 = await connection.accounts('?version=2');
    expect(v2.body.errlist).toEqual([
      { code: 'act.missingdata', msg: expect.stringContaining('Big: only the newest'), account_id: big },
    ]);
    // The rest, with an end-date before the oldest listed.
    const rest = await connection.accounts(`?account=${big}&end-date=${bigV1.transactions[0].transacted_at}`);
    expect(rest.body.accounts[0].transactions.map((t: Loose) => t.description)).toEqual(['bulk 10001']);
    expect(rest.body.errors).toEqual([]);
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
    const held = pending.transactions.find((t: Loose) => t.id === card.id);
    expect(held).toMatchObject({ posted: 0, pending: true, amount: '-25.00', payee: 'Żabka' });
    expect(held.transacted_at).toBe(Math.floor(Date.parse(card.date) / 1000));

    const posted = await app.call('POST', `/v1/transactions/${card.id}/post`, { token: user.accessToken, body: {} });
    expect(posted.status).toBe(200);
    const after = (await connection.accounts('?pending=1')).body.accounts[0].transactions.find((t: Loose) => t.id === card.id);
    expect(after).toMatchObject({ pending: false, amount: '-25.00' });
    expect(after.posted).toBe(Math.floor(Date.parse(posted.body.data.transaction.postedAt) / 1000));

    // A pending transaction that is voided is gone from the set (voided ones are never listed).
    const voided = (await simulate(app, user, { accountId, amount: -1_00, status: 'pending' })).body.data.transaction;
    expect((await connection.accounts('?pending=1')).body.accounts[0].transactions.map((t: Loose) => t.id)).toContain(voided.id);
    expect((await app.call('POST', `/v1/transactions/${voided.id}/void`, { token: user.accessToken, body: {} })).status).toBe(
      200,
    );
    const remaining = (await connection.accounts('?pending=1')).body.accounts[0].transactions.map((t: Loose) => t.id);
    expect(remaining).not.toContain(voided.id);
    expect(remaining).toHaveLength(2);
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
    expect(only.body.accounts.map((a: Loose) => a.id)).toEqual([mine]);
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
    const keys = (await app.call<Output['integrations']['listApiKeys']>('GET', '/v1/api-keys', { token: user.accessToken })).body
      .data;
    const key = keys.find((listed) => listed.name === 'SimpleFIN');
    expect(key).toBeDefined();
    expect((await app.call('DELETE', `/v1/api-keys/${key!.id}`, { token: user.accessToken })).status).toBeLessThan(300);
    expect((await connection.accounts()).status).toBe(403);

    // No secret reached the logs: not the claim code, not the key.
    const code = new URL(connection.claimUrl).pathname.split('/').pop() ?? '';
    const logs = app.logs.join('');
    expect(logs).not.toContain(code);
    expect(logs).not.toContain(password);
    expect(logs).not.toContain(Buffer.from(`${user.id}:${password}`).toString('base64'));
    expect(logs).toContain('/simplefin/claim/[redacted]');
    expect(logs).toContain('"path":"/simplefin/accounts"'); // the capture did see these requests
  });

  it('never logs a claim code, however the claim path is spelt', async () => {
    const user = await app.createUser();
    const spellings = [
      '/SIMPLEFIN/claim/',
      '/simplefin/CLAIM/',
      '//simplefin//claim/',
      '/%73implefin/claim/',
      '/simplefin/claim',
    ];
    const codes: string[] = [];
    for (const spelling of spellings) {
      const created = await app.call('POST', '/v1/simplefin/setup-token', { token: user.accessToken, body: {} });
      const code = new URL(created.body.data.claimUrl).pathname.split('/').pop() ?? '';
      codes.push(code);
      const path = spelling.endsWith('/') ? `${spelling}${code}` : `${spelling}%2F${code}`;
      await fetch(`${app.url}${path}`, { method: 'POST' });
    }
    const logs = app.logs.join('');
    for (const code of codes) expect(logs).not.toContain(code);
    // The router is case-insensitive: the upper-case spelling did claim (and was logged, redacted).
    expect(logs.match(/\/simplefin\/claim\/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(spellings.length);
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

describe('SimpleFIN rate limit', () => {
  it('answers the per-IP limit on /simplefin in the protocol’s shape: plain-text 429 with Retry-After', async () => {
    const limited = await startTestApp({ RATE_LIMIT_IP: '2/60' });
    try {
      const info = () => fetch(`${limited.url}/simplefin/info`);
      expect((await info()).status).toBe(200);
      expect((await info()).status).toBe(200);
      const refused = await info();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await refused.text()).toBe('Too many requests');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const claim = await fetch(`${limited.url}/simplefin/claim/${'a'.repeat(43)}`, { method: 'POST' });
      expect([claim.status, await claim.text()]).toEqual([429, 'Too many requests']);
    } finally {
      await limited.close();
    }
  });

  it('limits each credential on its own (RATE_LIMIT_API_KEY): 429 with Retry-After, another credential still reads', async () => {
    const limited = await startTestApp({ RATE_LIMIT_API_KEY: '2/60' });
    try {
      const get = async (accessUrl: string) => {
        const [, rest = ''] = accessUrl.split('//');
        const [auth = ''] = rest.split('@');
        return fetch(`${limited.url}/simplefin/accounts`, {
          headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` },
        });
      };
      const claim = async () => {
        const user = await limited.createUser();
        const created = await limited.call('POST', '/v1/simplefin/setup-token', { token: user.accessToken, body: {} });
        const claimed = await fetch(limited.url + new URL(created.body.data.claimUrl).pathname, { method: 'POST' });
        return claimed.text();
      };
      const [first, second] = [await claim(), await claim()];
      expect((await get(first)).status).toBe(200);
      expect((await get(first)).status).toBe(200);
      const refused = await get(first);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect((await get(second)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
