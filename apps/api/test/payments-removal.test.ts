/**
 * A world with payments can be emptied and removed: the payment links on its transactions
 * (`payment_id`, `counterpart_transaction_id`) are shown, so the version rule guards them, yet the
 * foreign keys' ON DELETE SET NULL during a reset or a user's removal must not be refused.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

async function worldWithPayments(): Promise<TestUser> {
  const user = await app.createUser();
  const from = await openAccount(app, user, 'Main');
  const to = await openAccount(app, user, 'Savings');
  expect((await simulate(app, user, { accountId: from, amount: 500_00 })).status).toBe(201);
  const pay = (to: Record<string, string>) =>
    app.call('POST', '/v1/payments', { token: user.accessToken, body: { fromAccountId: from, to, amount: 100_00 } });
  expect((await pay({ accountId: to })).status).toBe(201);
  expect((await pay({ iban: 'PL61109010140000071219812874', name: 'Jan Kowalski' })).status).toBe(201);
  const { rows } = await app.db.query(
    'select 1 from transactions where user_id = $1 and (payment_id is not null or counterpart_transaction_id is not null)',
    [user.id],
  );
  expect(rows.length).toBeGreaterThanOrEqual(3);
  return user;
}

it('resets a world whose transactions are linked to payments', async () => {
  const user = await worldWithPayments();
  const reset = await app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } });
  expect(reset.status, JSON.stringify(reset.body)).toBe(200);
  const { rows } = await app.db.query('select count(*)::int as n from transactions where user_id = $1', [user.id]);
  expect(rows).toEqual([{ n: 0 }]);
});

it('removes a user whose transactions are linked to payments, cascading to both', async () => {
  const user = await worldWithPayments();
  await app.db.query('delete from users where id = $1', [user.id]);
  const { rows } = await app.db.query(
    `select (select count(*) from transactions where user_id = $1)::int as transactions,
            (select count(*) from payments where user_id = $1)::int as payments`,
    [user.id],
  );
  expect(rows).toEqual([{ transactions: 0, payments: 0 }]);
});

it('refuses a link changed to another row without a new version', async () => {
  const user = await worldWithPayments();
  const {
    rows: [linked],
  } = await app.db.query<{ id: string }>('select id from transactions where user_id = $1 and payment_id is not null limit 1', [
    user.id,
  ]);
  await expect(
    app.db.query('update transactions set counterpart_transaction_id = null, payment_id = gen_random_uuid() where id = $1', [
      linked?.id,
    ]),
  ).rejects.toMatchObject({ constraint: 'transactions_version_raised' });
});
