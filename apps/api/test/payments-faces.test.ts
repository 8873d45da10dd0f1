/**
 * Payments as the faces show them (docs/concepts/payments.md), read with each provider's official
 * client: GoCardless (`nordigen-node`) names the creditor or debtor with their IBAN and the
 * EndToEndId; Plaid (`plaid`) puts the payee or payer and the reference in `payment_meta`, and its
 * answers stay valid against Plaid's published document.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gocardlessCalls, SANDBOX } from './gocardless-calls.ts';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { linkItem, plaidClientOf } from './plaid-calls.ts';
import { expectPlaidResponse } from './plaid-openapi.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { client } = gocardlessCalls(() => app);
const CREDITOR = { iban: 'PL61109010140000071219812874', name: 'Jan Kowalski' };
const DEBTOR = { debtorName: 'ACME sp. z o.o.', debtorIban: 'PL27114020040000300201355387' };

/** A funded account with one payment out (instant, settled) and one in (instant), each with an EndToEndId. */
async function paymentsBothWays(user: TestUser): Promise<string> {
  const accountId = await openAccount(app, user, 'Konto');
  expect((await simulate(app, user, { accountId, amount: 1_000_00 })).status).toBe(201);
  const out = await app.call('POST', '/v1/payments', {
    token: user.accessToken,
    body: {
      fromAccountId: accountId,
      to: CREDITOR,
      amount: 120_00,
      scheme: 'express_elixir',
      description: 'Czynsz',
      endToEndId: 'E2E-OUT-1',
    },
  });
  expect(out.body.data?.status, JSON.stringify(out.body)).toBe('ACSC');
  const incoming = await app.call('POST', '/v1/simulations/incoming-payment', {
    token: user.accessToken,
    body: { accountId, amount: 50_00, scheme: 'express_elixir', description: 'Faktura 42', endToEndId: 'E2E-IN-1', ...DEBTOR },
  });
  expect(incoming.status, JSON.stringify(incoming.body)).toBe(201);
  return accountId;
}

it('GoCardless: creditorName/creditorAccount of money out, debtorName/debtorAccount of money in, endToEndId', async () => {
  const user = await app.createUser();
  await paymentsBothWays(user);
  const nordigen = await client(user);
  const session = await nordigen.initSession({
    redirectUrl: 'https://budget.example/callback',
    institutionId: SANDBOX,
    referenceId: 'payments',
    maxHistoricalDays: 90,
    accessValidForDays: 30,
  });
  const requisition = await nordigen.requisition.getRequisitionById(session.id);
  const { transactions } = await nordigen.account(requisition.accounts[0]).getTransactions();
  const booked = transactions.booked as Record<string, unknown>[];
  expect(booked.find((t) => t.endToEndId === 'E2E-OUT-1')).toMatchObject({
    creditorName: CREDITOR.name,
    creditorAccount: { iban: CREDITOR.iban },
    transactionAmount: { amount: '-120.00', currency: 'PLN' },
    remittanceInformationUnstructured: 'Czynsz',
  });
  expect(booked.find((t) => t.endToEndId === 'E2E-IN-1')).toMatchObject({
    debtorName: DEBTOR.debtorName,
    debtorAccount: { iban: DEBTOR.debtorIban },
    transactionAmount: { amount: '50.00', currency: 'PLN' },
  });
});

it('Plaid: payment_meta names the payee or payer and the reference; counterparties stay empty', async () => {
  const user = await app.createUser();
  await paymentsBothWays(user);
  const plaid = await plaidClientOf(app, user);
  const { accessToken } = await linkItem(plaid);
  const synced = await plaid.transactionsSync({ access_token: accessToken });
  expectPlaidResponse('/transactions/sync', synced.data);
  const byName = new Map(synced.data.added.map((t) => [t.name, t]));
  expect(byName.get('Czynsz')?.payment_meta).toMatchObject({ payee: CREDITOR.name, payer: null, reference_number: 'E2E-OUT-1' });
  expect(byName.get('Faktura 42')?.payment_meta).toMatchObject({
    payee: null,
    payer: DEBTOR.debtorName,
    reference_number: 'E2E-IN-1',
  });
  expect(byName.get('Czynsz')?.counterparties).toEqual([]);
});
