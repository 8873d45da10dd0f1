/**
 * The statement endpoints' contract: both doors (user token, API key), the period on the world's
 * clock (default, clamp, empty, 366 days), camt version 08, and every refusal in our error contract.
 */
import { CashManagementEndOfDayReport } from 'iso20022.js';
import { describe, expect, it } from 'vitest';
import { expectRefusal, startTestApp } from '../../helpers.ts';
import { aqbankingImport, ensureAqbanking } from './aqbanking.ts';
import { daysAgo, download, useStatementWorld, warsawDay } from './statement-world.ts';

const given = useStatementWorld(ensureAqbanking);

const today = () => warsawDay(new Date().toISOString());
const statementPath = (query: string, accountId = given.world.accountId) => `/v1/accounts/${accountId}/statement?${query}`;
const get = (query: string, token = given.world.user.accessToken, accountId = given.world.accountId) =>
  given.app.call('GET', statementPath(query, accountId), { token });

describe('GET /v1/accounts/:id/statement', () => {
  it('defaults to the month to date, and clamps `to` to today in the account’s world', async () => {
    const month = `${today().slice(0, 8)}01`;
    const byDefault = await download(given.app, statementPath('format=csv'), given.world.user.accessToken);
    expect(byDefault.headers.get('content-disposition')).toContain(`-${month}-${today()}-csv.csv`);
    const soon = warsawDay(new Date(Date.now() + 10 * 86_400_000).toISOString());
    const future = await download(given.app, statementPath(`format=csv&from=${month}&to=${soon}`), given.world.user.accessToken);
    expect(future.status).toBe(200);
    expect(future.headers.get('content-disposition')).toContain(`-${month}-${today()}-csv.csv`);
  });

  it('writes a valid file for an empty period: opening = closing, no entries', async () => {
    const day = warsawDay(daysAgo(35));
    const file = await download(given.app, statementPath(`format=camt.053&from=${day}&to=${day}`), given.world.user.accessToken);
    const [statement] = CashManagementEndOfDayReport.fromXML(file.text).statements;
    expect(statement?.entries).toEqual([]);
    const balances = statement?.balances.map((bal) => [bal.type, Math.round(bal.amount)]);
    expect(balances).toEqual([
      ['OPBD', 5_000_00],
      ['CLBD', 5_000_00],
      ['CLAV', 5_000_00],
    ]);
  });

  it('writes camt.053.001.08 on request, imported by AqBanking (iso20022.js reads 001.02 only)', async () => {
    const file = await download(
      given.app,
      statementPath(`format=camt.053&version=08&from=${warsawDay(daysAgo(45))}`),
      given.world.user.accessToken,
    );
    expect(file.text).toContain('xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"');
    expect(file.text).toContain('<BICFI>SNDBPLP0</BICFI>');
    const imported = aqbankingImport(file.bytes, 'camt');
    expect(imported.amounts).toHaveLength(6);
    expect(imported.closing).toBe(given.world.balance);
  });

  it('takes exactly 366 days, refuses 367 (422) and `from` after `to` (400)', async () => {
    expect(
      (await download(given.app, statementPath('format=csv&from=2025-01-01&to=2026-01-01'), given.world.user.accessToken)).status,
    ).toBe(200);
    expectRefusal(await get('format=csv&from=2025-01-01&to=2026-01-02'), [422, 'PERIOD_TOO_LONG', 'from']);
    expectRefusal(await get(`format=csv&from=${warsawDay(daysAgo(400))}`), [422, 'PERIOD_TOO_LONG', 'from']);
    expectRefusal(await get('format=csv&from=2026-02-02&to=2026-02-01'), [400, 'VALIDATION_ERROR', 'from']);
    expectRefusal(await get('format=csv&from=2999-01-01'), [400, 'VALIDATION_ERROR', 'from']);
    expectRefusal(await get('format=csv&from=2026-02-30'), [400, 'VALIDATION_ERROR', 'from']);
  });

  it('refuses an unknown or missing format listing the formats, and unknown parameters', async () => {
    const unknown = await get('format=qif');
    expectRefusal(unknown, [400, 'VALIDATION_ERROR', 'format']);
    expect(unknown.body.details[0].message).toBe('Expected one of: camt.053, camt.052, mt940, ofx, ofx1, csv');
    expectRefusal(await get(''), [400, 'VALIDATION_ERROR', 'format']);
    expectRefusal(await get('format=mt940&encoding=latin1'), [400, 'VALIDATION_ERROR', 'encoding']);
    expectRefusal(await get('format=csv&color=red'), [400, 'VALIDATION_ERROR', 'color']);
    expectRefusal(await get('format=csv&format=ofx'), [400, 'VALIDATION_ERROR', 'format']);
  });

  it('answers 404 for another user’s account and a missing one, 400 for a malformed id, 401 without a token', async () => {
    const other = await given.app.createUser();
    expectRefusal(await get('format=csv', other.accessToken), [404, 'NOT_FOUND', undefined]);
    expectRefusal(await get('format=csv', given.world.user.accessToken, '019abcde-0000-7000-8000-000000000000'), [
      404,
      'NOT_FOUND',
      undefined,
    ]);
    expectRefusal(await get('format=csv', given.world.user.accessToken, 'nope'), [400, 'VALIDATION_ERROR', 'id']);
    expectRefusal(await given.app.call('GET', statementPath('format=csv')), [401, 'UNAUTHENTICATED', undefined]);
    expectRefusal(await get('format=csv', 'not-a-token'), [401, 'UNAUTHENTICATED', undefined]);
  });
});

describe('GET /api/owner/:owner/accounts/:id/statement', () => {
  it('serves the same file to the owner’s API key, and nothing of anyone else', async () => {
    const key = (
      await given.app.call('POST', '/v1/api-keys', { token: given.world.user.accessToken, body: { name: 'Statements' } })
    ).body.data.key;
    const query = `format=mt940&from=${warsawDay(daysAgo(45))}`;
    const owner = encodeURIComponent(given.world.user.email.split('@')[0] ?? '');
    const byKey = await download(given.app, `/api/owner/${owner}/accounts/${given.world.accountId}/statement?${query}`, key);
    expect(byKey.status, byKey.text).toBe(200);
    expect(byKey.headers.get('ratelimit-limit')).not.toBeNull();
    const byToken = await download(given.app, statementPath(query), given.world.user.accessToken);
    expect(byKey.text).toBe(byToken.text);

    const other = await given.app.createUser();
    const otherAccount = (await given.app.call('POST', '/v1/accounts', { token: other.accessToken, body: { name: 'X' } })).body
      .data.id;
    const ownerPath = (who: string, accountId: string) => `/api/owner/${who}/accounts/${accountId}/statement?${query}`;
    expectRefusal(await given.app.call('GET', ownerPath(other.id, otherAccount), { token: key }), [404, 'NOT_FOUND', undefined]);
    expectRefusal(await given.app.call('GET', ownerPath(given.world.user.id, otherAccount), { token: key }), [
      404,
      'NOT_FOUND',
      undefined,
    ]);
    expectRefusal(
      await given.app.call('GET', ownerPath(given.world.user.id, given.world.accountId), { token: given.world.user.accessToken }),
      [401, 'UNAUTHENTICATED', undefined],
    );
  });
});

describe('the API-key door’s rate limit', () => {
  it('takes points from the pull endpoint’s per-key bucket and answers 429 in the contract', async () => {
    const limited = await startTestApp({ RATE_LIMIT_API_KEY: '2/60' });
    try {
      const user = await limited.createUser();
      const accountId = (await limited.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'A' } })).body.data
        .id;
      const key = (await limited.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'K' } })).body.data.key;
      expect((await limited.call('GET', `/api/owner/${user.id}/transactions`, { token: key })).status).toBe(200);
      const path = `/api/owner/${user.id}/accounts/${accountId}/statement?format=csv`;
      expect((await download(limited, path, key)).status).toBe(200);
      const refused = await limited.call('GET', path, { token: key });
      expectRefusal(refused, [429, 'RATE_LIMITED', undefined]);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});
