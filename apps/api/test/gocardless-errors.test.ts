/**
 * The GoCardless face refusing bad input in GoCardless's error shapes (`{ summary, detail,
 * status_code }`, plus `type` on account errors; a refused body field keyed by its name, as the live
 * service answers: `{ max_historical_days: [{ summary, detail }], status_code: 400 }`), changing nothing: wrong secrets, a revoked key,
 * expired and refreshed tokens, tokens of the wrong kind, another user's ids, a requisition not yet
 * linked, agreements out of bounds, date ranges outside the agreement, scopes not granted, and the
 * per-credential rate limit with GoCardless's headers.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import NordigenClient from 'nordigen-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gocardlessCalls, SANDBOX } from './gocardless-calls.ts';
import { type Loose, startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { baseUrl, secrets, client, advance, decide, refusal } = gocardlessCalls(() => app);

const shape = (body: Record<string, unknown>) => Object.keys(body).sort();
const ERROR_KEYS = ['detail', 'status_code', 'summary'];
const gc = (path: string, init: { method?: string; token?: string; body?: unknown } = {}) =>
  fetch(`${baseUrl()}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  }).then(async (res) => ({ status: res.status, headers: res.headers, body: (await res.json()) as Loose }));

const faceRows = async (userId: string) =>
  (
    await app.db.query(
      `select (select count(*) from gocardless_agreements where user_id = $1)::int as agreements,
              (select count(*) from gocardless_requisitions where user_id = $1)::int as requisitions,
              (select count(*) from gocardless_accounts where user_id = $1)::int as accounts`,
      [userId],
    )
  ).rows[0];

async function linkedSandbox(user: TestUser) {
  const nordigen = await client(user);
  const { access } = await nordigen.generateToken();
  const session = await nordigen.initSession({ redirectUrl: 'https://app.example/cb', institutionId: SANDBOX });
  const { accounts } = await nordigen.requisition.getRequisitionById(session.id);
  return { nordigen, access: access as string, session, accountId: accounts[0] as string };
}

describe('GoCardless face: credentials and tokens', () => {
  it('refuses wrong secrets, and a revoked key ends every token it gave', async () => {
    const user = await app.createUser();
    const { secretId, secretKey } = await secrets(user);
    const other = await secrets(user);
    const keyRows = async () =>
      (await app.db.query('select id, last_used_at, revoked_at from api_keys where user_id = $1 order by id', [user.id])).rows;
    const keysBefore = await keyRows();
    for (const body of [
      { secret_id: secretId, secret_key: `${secretKey}x` },
      { secret_id: other.secretId, secret_key: secretKey },
      { secret_id: 'not-a-key-id', secret_key: secretKey },
    ]) {
      const res = await gc('/token/new/', { method: 'POST', body });
      expect([res.status, res.body.summary, shape(res.body)]).toEqual([401, 'Authentication failed', ERROR_KEYS]);
      expect(JSON.stringify(res.body)).not.toContain(secretKey);
    }
    // The live service answers a missing field 400, keyed by the field (its document lists no 400 here).
    const missing = await gc('/token/new/', { method: 'POST', body: { secret_id: secretId } });
    expect([missing.status, missing.body]).toEqual([400, { secret_key: ['This field is required.'], status_code: 400 }]);
    // Refused secrets change nothing: no key is marked used.
    expect(await keyRows()).toEqual(keysBefore);
    const badJson = await fetch(`${baseUrl()}/token/new/`, {
      method: 'POST',
      body: '{"secret_id":',
      headers: { 'content-type': 'application/json' },
    });
    expect([badJson.status, shape((await badJson.json()) as Record<string, unknown>)]).toEqual([400, ERROR_KEYS]);

    const tokens = (await gc('/token/new/', { method: 'POST', body: { secret_id: secretId, secret_key: secretKey } })).body;
    expect(tokens).toMatchObject({ access_expires: 86_400, refresh_expires: 2_592_000 });
    expect((await gc('/institutions/?country=pl', { token: tokens.access })).status).toBe(200);
    expect((await app.call('DELETE', `/v1/api-keys/${secretId}`, { token: user.accessToken })).status).toBe(200);
    const revoked = await gc('/institutions/?country=pl', { token: tokens.access });
    expect([revoked.status, revoked.body]).toEqual([
      401,
      { summary: 'Invalid token', detail: 'Token is invalid or expired', status_code: 401 },
    ]);
    expect((await gc('/token/refresh/', { method: 'POST', body: { refresh: tokens.refresh } })).status).toBe(401);
    expect((await gc('/token/new/', { method: 'POST', body: { secret_id: secretId, secret_key: secretKey } })).status).toBe(401);
  });

  it('expires tokens on the world clock, refreshes them, and keeps kinds and audiences apart', async () => {
    const user = await app.createUser();
    const { secretId, secretKey } = await secrets(user);
    const tokens = (await gc('/token/new/', { method: 'POST', body: { secret_id: secretId, secret_key: secretKey } })).body;
    expect((await gc('/institutions/', { token: tokens.refresh })).status).toBe(401); // a refresh token is not an access token
    expect((await gc('/token/refresh/', { method: 'POST', body: { refresh: tokens.access } })).status).toBe(401);
    expect((await gc('/institutions/', { token: user.accessToken })).status).toBe(401); // Sandbank's own JWT
    expect((await app.call('GET', '/v1/accounts', { token: tokens.access })).status).toBe(401); // and the other way round
    expect((await gc('/institutions/')).body.summary).toBe('Authentication credentials were not provided.');

    await advance(user, 'PT24H');
    expect((await gc('/institutions/', { token: tokens.access })).status).toBe(401);
    const refreshed = await gc('/token/refresh/', { method: 'POST', body: { refresh: tokens.refresh } });
    expect([refreshed.status, refreshed.body.access_expires]).toEqual([200, 86_400]);
    expect((await gc('/institutions/', { token: refreshed.body.access })).status).toBe(200);
    await advance(user, 'P30D');
    expect((await gc('/token/refresh/', { method: 'POST', body: { refresh: tokens.refresh } })).status).toBe(401);
  });
});

describe('GoCardless face: ownership, linking, agreements and dates', () => {
  it("answers 404 for another user's requisition and account ids, and for malformed ids", async () => {
    const alice = await app.createUser();
    await openAccount(app, alice);
    const { session, accountId } = await linkedSandbox(alice);
    const mallory = await client(await app.createUser());
    const aliceRows = async () =>
      (
        await app.db.query(
          `select g.id, g.last_accessed, (select count(*)::int from gocardless_daily_access d where d.account_id = g.id) as reads
             from gocardless_accounts g where g.user_id = $1 order by g.id`,
          [alice.id],
        )
      ).rows;
    const before = await aliceRows();
    for (const call of [
      () => mallory.requisition.getRequisitionById(session.id),
      () => mallory.account(accountId).getMetadata(),
      () => mallory.account(accountId).getTransactions(),
      () => mallory.account('not-a-uuid').getDetails(),
    ]) {
      const refused = await refusal(call());
      expect([refused.status, refused.body]).toEqual([404, { summary: 'Not found.', detail: 'Not found.', status_code: 404 }]);
    }
    // Another user's reads leave Alice's linked accounts as they were (not even last_accessed).
    expect(await aliceRows()).toEqual(before);
  });

  it('keeps a requisition not yet linked without accounts; a refusal is RJ, once', async () => {
    const user = await app.createUser();
    const worldAccount = await openAccount(app, user);
    const nordigen = await client(user);
    const session = await nordigen.initSession({
      redirectUrl: 'https://app.example/cb?x=1',
      institutionId: 'SANDBANK_DATY_SNDBPLP1',
      referenceId: 'r-1',
    });
    expect(await nordigen.requisition.getRequisitionById(session.id)).toMatchObject({ status: 'CR', accounts: [] });
    expect((await refusal(nordigen.account(worldAccount).getTransactions())).status).toBe(404);
    const refused = await decide(user, session.id, { approve: false });
    expect(refused.body.data).toEqual({
      id: session.id,
      status: 'RJ',
      accounts: [],
      redirect: 'https://app.example/cb?x=1&ref=r-1',
    });
    expect((await decide(user, session.id, { approve: true })).status).toBe(409);
    expect(await nordigen.requisition.getRequisitionById(session.id)).toMatchObject({ status: 'RJ', accounts: [] });
    const again = await refusal(
      nordigen.initSession({ redirectUrl: 'https://app.example/cb', institutionId: SANDBOX, referenceId: 'r-1' }),
    );
    expect([again.status, shape(again.body), again.body.reference?.[0]?.detail]).toEqual([
      400,
      ['reference', 'status_code'],
      'Reference r-1 is already used by another requisition',
    ]);
  });

  it('refuses agreements out of bounds and unknown institutions, creating nothing', async () => {
    const user = await app.createUser();
    const nordigen = await client(user);
    const before = await faceRows(user.id);
    for (const [params, field] of [
      [{ institutionId: SANDBOX, maxHistoricalDays: 366 }, 'max_historical_days'],
      [{ institutionId: SANDBOX, accessValidForDays: 181 }, 'access_valid_for_days'],
      [{ institutionId: SANDBOX, maxHistoricalDays: 0 }, 'max_historical_days'],
    ] as const) {
      // Keyed by the field, a list of {summary, detail}, as the live service answers it.
      const refused = await refusal(nordigen.agreement.createAgreement(params as never));
      expect([refused.status, shape(refused.body), refused.body.status_code]).toEqual([400, [field, 'status_code'], 400]);
      expect(shape(refused.body[field][0])).toEqual(['detail', 'summary']);
      expect(refused.body[field][0].detail).toContain(field);
    }
    const unknown = await refusal(nordigen.agreement.createAgreement({ institutionId: 'NO_SUCH_BANK' }));
    expect([unknown.status, unknown.body]).toEqual([
      400,
      {
        institution_id: {
          summary: 'Unknown Institution ID NO_SUCH_BANK',
          detail: 'Get Institution IDs from /institutions/?country={$COUNTRY_CODE}',
        },
        status_code: 400,
      },
    ]);
    const bad = await refusal(nordigen.agreement.createAgreement({ institutionId: SANDBOX, accessScope: ['payments'] } as never));
    expect(bad.status).toBe(400);
    expect(await faceRows(user.id)).toEqual(before);
  });

  it('bounds transactions by max_historical_days and the dates asked, and enforces access_scope', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await simulate(app, user, { accountId, amount: 10_00 });
    const nordigen = await client(user);
    const agreement = await nordigen.agreement.createAgreement({
      institutionId: SANDBOX,
      maxHistoricalDays: 30,
      accessScope: ['balances'],
    });
    const requisition = await nordigen.requisition.createRequisition({
      redirectUrl: 'https://app.example/cb',
      institutionId: SANDBOX,
      agreement: agreement.id,
    });
    const [linked] = (await nordigen.requisition.getRequisitionById(requisition.id)).accounts;
    const bankAccount = nordigen.account(linked);
    expect((await bankAccount.getBalances()).balances).toHaveLength(3);
    const scoped = await refusal(bankAccount.getTransactions());
    expect([scoped.status, scoped.body.type]).toEqual([403, 'AccessScopeError']);
    expect((await refusal(bankAccount.getDetails())).status).toBe(403);

    const full = await linkedSandbox(user);
    // The face's days are Warsaw days of the world's clock: between 22:00 and 24:00 UTC a UTC date is a day behind.
    const warsawDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' });
    const dayOf = (daysAgo: number) => warsawDay.format(Date.now() - daysAgo * 86_400_000);
    const today = dayOf(0);
    const ranges = [
      [{ date_from: dayOf(95), date_to: today }, 'date_from'],
      [{ date_from: today, date_to: dayOf(3) }, 'date_from'],
      [{ date_from: '2026-13-01' }, 'date_from'],
    ] as const;
    for (const [query, field] of ranges) {
      const res = await gc(`/accounts/${full.accountId}/transactions/?${new URLSearchParams(query)}`, {
        token: full.access,
      });
      expect([res.status, res.body.summary, shape(res.body)]).toEqual([400, `Invalid ${field}`, ERROR_KEYS]);
    }
    const inside = await gc(`/accounts/${full.accountId}/transactions/?date_from=${dayOf(88)}`, { token: full.access });
    expect([inside.status, inside.body.transactions.booked.length]).toEqual([200, 1]);
  });
});

describe('GoCardless face: rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_API_KEY: '3/60' });
  });
  afterAll(() => limited.close());

  it('limits each credential with the HTTP_X_RATELIMIT_* headers of GoCardless', async () => {
    const user = await limited.createUser();
    const key = (await limited.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'k' } })).body.data;
    const nordigen = new NordigenClient({ secretId: key.id, secretKey: key.key, baseUrl: `${limited.url}/gocardless/api/v2` });
    const { access } = await nordigen.generateToken();
    const seen: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await fetch(`${limited.url}/gocardless/api/v2/institutions/`, {
        headers: { authorization: `Bearer ${access}` },
      });
      expect(res.status).toBe(200);
      seen.push(`${res.headers.get('http_x_ratelimit_limit')}/${res.headers.get('http_x_ratelimit_remaining')}`);
    }
    expect(seen).toEqual(['3/2', '3/1', '3/0']);
    const refused = await refusal(nordigen.institution.getInstitutions({ country: 'pl' }));
    expect([refused.status, refused.body.summary, refused.body.status_code]).toEqual([429, 'Rate limit exceeded', 429]);
    expect(Number(refused.headers.http_x_ratelimit_reset)).toBeGreaterThan(0);
    expect(refused.headers.http_x_ratelimit_remaining).toBe('0');
  });

  it('answers the per-IP limit on its paths in GoCardless’s shape too', async () => {
    const perIp = await startTestApp({ RATE_LIMIT_IP: '2/60' });
    try {
      const send = () => fetch(`${perIp.url}/gocardless/api/v2/institutions/`);
      expect((await send()).status).toBe(401);
      expect((await send()).status).toBe(401);
      const refused = await send();
      const body = (await refused.json()) as Loose;
      expect([refused.status, body.summary, body.status_code]).toEqual([429, 'Rate limit exceeded', 429]);
      expect(body.detail).toContain('2 requests per address');
      expect(refused.headers.get('http_x_ratelimit_remaining')).toBe('0');
    } finally {
      await perIp.close();
    }
  });
});
