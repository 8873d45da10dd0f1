/**
 * The Plaid face's products with Plaid's official SDK: `/auth/get` (each account's IBAN and BIC in
 * `numbers.international`, as Plaid serves European accounts) and `/identity/get` (the world's user as
 * the owner), both checked against Plaid's published document; link tokens and public tokens that
 * name a product or country Sandbank does not serve are refused with Plaid's errors, as the quickstart's
 * defaults (`auth,transactions,signal`, `US,CA`) are; and a path of another product answers
 * PRODUCTS_NOT_SUPPORTED naming it.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import type { AxiosError } from 'axios';
import { CountryCode, Products } from 'plaid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { linkItem, plaidClientOf } from './plaid-calls.ts';
import { expectPlaidError, expectPlaidResponse } from './plaid-openapi.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

async function refusal(call: Promise<unknown>, code: string, status = 400) {
  const error = (await call.then(
    () => null,
    (thrown: unknown) => thrown,
  )) as AxiosError | null;
  expect(error, `expected ${code}`).not.toBeNull();
  expect(error?.response?.status).toBe(status);
  expectPlaidError(error?.response?.data, code);
  return error?.response?.data as { error_type: string; error_message: string };
}

async function userWithAccounts(): Promise<{ user: TestUser; accountIds: string[] }> {
  const user = await app.createUser();
  const accountIds = [await openAccount(app, user, 'Konto osobiste'), await openAccount(app, user, 'Oszczędności')];
  expect((await simulate(app, user, { accountId: accountIds[0] as string, amount: 100_00 })).status).toBe(201);
  return { user, accountIds };
}

describe('Plaid face: auth and identity', () => {
  it('serves each account’s IBAN and BIC in numbers.international, as every face shows them', async () => {
    const { user, accountIds } = await userWithAccounts();
    const client = await plaidClientOf(app, user);
    const { accessToken } = await linkItem(client);
    const auth = await client.authGet({ access_token: accessToken });
    expectPlaidResponse('/auth/get', auth.data);
    const ibans = await Promise.all(
      accountIds.map(async (id) => (await app.call('GET', `/v1/accounts/${id}`, { token: user.accessToken })).body.data.iban),
    );
    expect(auth.data.numbers).toEqual({
      ach: [],
      eft: [],
      international: accountIds.map((account_id, i) => ({ account_id, iban: ibans[i], bic: 'SNDBPLP0' })),
      bacs: [],
    });
    expect(auth.data.accounts.map((account) => account.mask)).toEqual(ibans.map((iban) => String(iban).slice(-4)));
    const one = await client.authGet({ access_token: accessToken, options: { account_ids: [accountIds[1] as string] } });
    expect(one.data.numbers.international.map((numbers) => numbers.account_id)).toEqual([accountIds[1]]);
    await refusal(client.authGet({ access_token: accessToken, options: { account_ids: ['nope'] } }), 'INVALID_ACCOUNT_ID');
  });

  it('shows the world’s user as every account’s owner, at the documented default address', async () => {
    const { user, accountIds } = await userWithAccounts();
    const client = await plaidClientOf(app, user);
    const { accessToken } = await linkItem(client);
    const identity = await client.identityGet({ access_token: accessToken });
    expectPlaidResponse('/identity/get', identity.data);
    expect(identity.data.accounts.map((account) => account.account_id)).toEqual(accountIds);
    for (const account of identity.data.accounts) {
      expect(account.owners).toEqual([
        {
          names: [user.email],
          emails: [{ data: user.email, primary: true, type: 'primary' }],
          phone_numbers: [],
          addresses: [
            {
              data: { street: 'ul. Piaskowa 1', city: 'Warszawa', region: null, postal_code: '00-001', country: 'PL' },
              primary: true,
            },
          ],
        },
      ]);
    }
  });

  it('links Items with auth and identity, and refuses what Sandbank does not serve where Plaid would', async () => {
    const { user } = await userWithAccounts();
    const client = await plaidClientOf(app, user);
    const created = await client.sandboxPublicTokenCreate({
      institution_id: 'ins_sandbank',
      initial_products: [Products.Auth, Products.Identity, Products.Transactions],
    });
    expectPlaidResponse('/sandbox/public_token/create', created.data);
    const link = (products: Products[], country_codes: CountryCode[]) =>
      client.linkTokenCreate({
        client_name: 'Quickstart',
        language: 'en',
        country_codes,
        user: { client_user_id: 'u-1' },
        products,
      });
    expectPlaidResponse(
      '/link/token/create',
      (await link([Products.Auth, Products.Transactions, Products.Identity], [CountryCode.Pl])).data,
    );
    // The quickstart's defaults: signal is not served, and Sandbank's one institution is not in US or CA.
    const signal = await refusal(
      link([Products.Auth, Products.Transactions, Products.Signal], [CountryCode.Pl]),
      'INVALID_PRODUCT',
    );
    expect([signal.error_type, signal.error_message]).toEqual(['INVALID_INPUT', expect.stringContaining('["signal"]')]);
    const countries = await refusal(
      link([Products.Auth, Products.Transactions], [CountryCode.Us, CountryCode.Ca]),
      'INVALID_FIELD',
    );
    expect(countries.error_message).toContain('US, CA');
    await refusal(
      client.sandboxPublicTokenCreate({ institution_id: 'ins_sandbank', initial_products: [Products.Investments] }),
      'INVALID_PRODUCT',
    );
  });

  it('answers PRODUCTS_NOT_SUPPORTED, naming the product, on a path of a product it does not serve', async () => {
    const { user } = await userWithAccounts();
    const client = await plaidClientOf(app, user);
    const { accessToken } = await linkItem(client);
    const holdings = await refusal(client.investmentsHoldingsGet({ access_token: accessToken }), 'PRODUCTS_NOT_SUPPORTED');
    expect([holdings.error_type, holdings.error_message]).toEqual(['ITEM_ERROR', expect.stringContaining(': investments')]);
    const liabilities = await refusal(client.liabilitiesGet({ access_token: accessToken }), 'PRODUCTS_NOT_SUPPORTED');
    expect(liabilities.error_message).toContain(': liabilities');
    // The credentials are checked first, as on every endpoint; a path of no product stays NOT_FOUND.
    const stranger = await plaidClientOf(app, user, 'not-a-key');
    await refusal(stranger.investmentsHoldingsGet({ access_token: accessToken }), 'INVALID_API_KEYS');
    const unknown = await fetch(`${app.url}/plaid/no/such/endpoint`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    expectPlaidError(await unknown.json(), 'NOT_FOUND');
  });
});
