/**
 * The daily limit of unattended reads under concurrency (docs/faces/personalities.md): reads racing for
 * the last ones of a day are counted one by one (the count is one upsert), so of ten at once exactly the
 * bank's limit answer and the others are 429 ASPSP_RATE_LIMIT_EXCEEDED.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PERSONALITIES } from '../../../src/faces/personalities.ts';
import { startTestApp, type TestApp } from '../../helpers.ts';
import { seedAccount } from '../personalities-helpers.ts';
import { enablebankingCalls } from './calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const { register, eb, jwt, auth, redirected, decide } = enablebankingCalls(() => app);

it('lets exactly the limit of ten racing reads through', async () => {
  const limit = PERSONALITIES.find((p) => p.enablebanking.name === 'PKO Bank Polski')?.quirks.dailyLimit;
  if (!limit) throw new Error('PKO Bank Polski has no daily limit');
  const user = await app.createUser();
  const accountId = await seedAccount(app, user);
  const application = await register(user);
  const started = await auth(application, 'PKO Bank Polski', 'race');
  const approved = await decide(user, started.body.authorization_id, { approve: true, accountIds: [accountId] });
  const session = await eb(application, 'POST', '/sessions', { code: redirected(approved.body.data.redirect).code });
  expect(session.status, JSON.stringify(session.body)).toBe(200);
  const uid: string = session.body.accounts[0].uid;
  const token = await jwt(application);
  const answers = await Promise.all(
    Array.from({ length: 10 }, () =>
      app.call('GET', `/enablebanking/accounts/${uid}/details`, { headers: { authorization: `Bearer ${token}` } }),
    ),
  );
  const statuses = answers.map((answer) => answer.status).sort();
  expect(statuses).toEqual([...Array(limit).fill(200), ...Array(10 - limit).fill(429)]);
});
