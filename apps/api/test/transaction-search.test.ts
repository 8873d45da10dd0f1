/** `q` on an account's history: description or merchant (any case, wildcards literal) or the amount in złoty; bounded. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('searching an account history', () => {
  it('finds by description, merchant and amount; counts what matches; refuses an over-long search', async () => {
    const { accessToken: token } = await app.createUser();
    const account = (await app.call('POST', '/v1/accounts', { token, body: { name: 'Searched' } })).body.data;
    const book = (amount: number, description: string, merchant?: string) =>
      app.call('POST', '/v1/simulations/transaction', {
        token,
        body: { accountId: account.id, amount, description, ...(merchant ? { merchant } : {}) },
      });
    await book(10_000, 'Salary');
    await book(-1_250, 'Groceries', 'Biedronka');
    await book(-999, '100% juice', 'Żabka');
    await book(-1_250, 'Lunch');
    const search = async (q: string) => {
      const res = await app.call('GET', `/v1/accounts/${account.id}/transactions?q=${encodeURIComponent(q)}`, { token });
      return {
        status: res.status,
        found: (res.body.data ?? []).map((t: { description: string }) => t.description),
        meta: res.body.meta,
      };
    };
    expect((await search('biedRONKA')).found).toEqual(['Groceries']);
    expect((await search('sal')).found).toEqual(['Salary']);
    const byAmount = await search('12,50');
    expect(byAmount.found.sort()).toEqual(['Groceries', 'Lunch']);
    expect(byAmount.meta.total).toBe(2);
    expect((await search('%')).found).toEqual(['100% juice']);
    expect((await search('_')).found).toEqual([]);
    expect((await search('żab')).found).toEqual(['100% juice']);
    expect((await search('x'.repeat(101))).status).toBe(400);
  });
});
