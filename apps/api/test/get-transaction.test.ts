/** `GET /v1/transactions/{id}` (transactions.getTransaction): one transaction as it is now, voided ones too, with its version. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('get a transaction', () => {
  it('answers the transaction at its current version, after a void too; unknown ids are 404', async () => {
    const user = await app.createUser();
    const token = user.accessToken;
    const account = (await app.call('POST', '/v1/accounts', { token, body: { name: 'Read by id' } })).body.data;
    const simulated = await app.call('POST', '/v1/simulations/transaction', {
      token,
      body: { accountId: account.id, amount: 1_500, description: 'Hold', status: 'pending' },
    });
    const { id } = simulated.body.data.transaction;
    const before = await app.call('GET', `/v1/transactions/${id}`, { token });
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual(simulated.body.data.transaction);

    await app.call('POST', `/v1/transactions/${id}/void`, { token, body: { ifVersion: 1 } });
    const after = await app.call('GET', `/v1/transactions/${id}`, { token });
    expect(after.body.data).toMatchObject({ id, status: 'voided', version: 2, amount: 1_500 });

    const missing = await app.call('GET', '/v1/transactions/01930000-0000-7000-8000-000000000000', { token });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });
});
