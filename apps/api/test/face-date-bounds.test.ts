/**
 * Every date a face takes has its range in the face's schema (issue 46): a day whose local start
 * leaves the holdable years (0001-01-01 in Warsaw begins in year 0) is refused in the protocol's
 * own error shape, never a 500. And a consent's redirect URL with control characters is refused,
 * a good one stored as it parses.
 */
import { isAxiosError } from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gocardlessCalls, SANDBOX } from './gocardless-calls.ts';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { linkItem, plaidClientOf } from './plaid-calls.ts';

let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  app = await startTestApp();
  user = await app.createUser();
  await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Main' } });
});
afterAll(() => app?.close());

const { client, refusal } = gocardlessCalls(() => app);

/** The status and body of a Plaid SDK call, refused or not. */
async function plaidAnswer(call: Promise<{ status: number; data: unknown }>): Promise<{ status: number; body: unknown }> {
  try {
    const res = await call;
    return { status: res.status, body: res.data };
  } catch (error) {
    if (isAxiosError(error) && error.response) return { status: error.response.status, body: error.response.data };
    throw error;
  }
}

const OUT = ['0001-01-01', '9999-12-31', '0000-06-01'];
const IN = ['0001-01-02', '9999-12-30'];

describe('face dates at the ends of time', () => {
  it('Plaid /transactions/get: days outside 0001-01-02…9999-12-30 are INVALID_FIELD-style 400s, the edges answer', async () => {
    const plaid = await plaidClientOf(app, user);
    const { accessToken } = await linkItem(plaid);
    for (const day of OUT) {
      const res = await plaidAnswer(
        plaid.transactionsGet({ access_token: accessToken, start_date: day, end_date: '2026-01-01' }),
      );
      expect([res.status, (res.body as { error_type?: string }).error_type], day).toEqual([400, 'INVALID_REQUEST']);
    }
    for (const day of IN) {
      const [start, end] = day < '5000' ? [day, '2026-01-01'] : ['2026-01-01', day];
      const res = await plaidAnswer(
        plaid.transactionsGet({ access_token: accessToken, start_date: start as string, end_date: end as string }),
      );
      expect(res.status, `${day}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    expect(app.logs.join('')).not.toMatch(/out of range/);
  });

  it('GoCardless transactions: date_from and date_to outside the range are the face’s 400, the edges answer', async () => {
    const nordigen = await client(user);
    const session = await nordigen.initSession({ redirectUrl: 'https://app.example/cb', institutionId: SANDBOX });
    const { accounts } = await nordigen.requisition.getRequisitionById(session.id);
    const account = nordigen.account(accounts[0] as string);
    for (const day of OUT) {
      const refused = await refusal(account.getTransactions({ dateFrom: day, dateTo: '2026-01-01' }));
      expect([refused.status, Object.keys(refused.body)], day).toEqual([400, expect.arrayContaining(['status_code'])]);
    }
    // The first day is refused by the agreement's history (max_historical_days), as GoCardless does; the last one answers.
    const early = await refusal(account.getTransactions({ dateFrom: '0001-01-02', dateTo: '2026-01-01' }));
    expect([early.status, JSON.stringify(early.body)]).toEqual([400, expect.stringContaining('max_historical_days')]);
    const recent = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    await expect(account.getTransactions({ dateFrom: recent, dateTo: '9999-12-30' })).resolves.toBeTruthy();
  });

  it('a consent redirect with a line break or another control character is refused; a good one is stored normalised', async () => {
    const nordigen = await client(user);
    for (const redirect of [
      'https://app.example/cb\r\nX-Injected: 1',
      'https://app.example/\tcb',
      'https://app.example/cb\u0000',
    ]) {
      const refused = await refusal(nordigen.initSession({ redirectUrl: redirect, institutionId: SANDBOX }));
      expect(refused.status, JSON.stringify(redirect)).toBe(400);
    }
    const session = await nordigen.initSession({ redirectUrl: 'HTTPS://App.Example:443/cb', institutionId: SANDBOX });
    const stored = await nordigen.requisition.getRequisitionById(session.id);
    expect(stored.redirect).toBe('https://app.example/cb');
  });
});
