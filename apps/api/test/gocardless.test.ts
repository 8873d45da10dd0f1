/**
 * The GoCardless Bank Account Data face (docs/faces/gocardless.md) driven end to end by GoCardless's official
 * client, `nordigen-node` 1.4.1, unchanged but for `baseUrl`: token, institutions, initSession with
 * the sandbox institution, the linked requisition, details, balances and transactions; then the
 * world moves (a pending payment, its post, a void, the clock) and the client sees it.
 */
import { ibanOf } from '@sandbank/core';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gocardlessCalls, SANDBOX } from './gocardless-calls.ts';
import { startTestApp, type TestApp } from './helpers.ts';
import { lifecycleCalls } from './lifecycle-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { client, advance, refusal } = gocardlessCalls(() => app);
const { act, account: sandbankAccount, pendingCard } = lifecycleCalls(() => app);

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

describe('GoCardless face with nordigen-node', () => {
  it('links the sandbox institution and follows the world: pending, post, void, clock, expiry', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Konto osobiste');
    expect(
      (await simulate(app, user, { accountId, amount: 500_00, description: 'Stara wpłata', date: daysAgo(120) })).status,
    ).toBe(201);
    expect(
      (await simulate(app, user, { accountId, amount: 1_000_00, description: 'Wypłata', merchant: 'ACME', date: daysAgo(10) }))
        .status,
    ).toBe(201);

    const nordigen = await client(user);
    const institutions = await nordigen.institution.getInstitutions({ country: 'pl' });
    expect(institutions.map((i: { id: string }) => i.id)).toContain(SANDBOX);
    expect(await nordigen.institution.getInstitutionById(SANDBOX)).toMatchObject({ id: SANDBOX, bic: 'SFIN0000' });

    const session = await nordigen.initSession({
      redirectUrl: 'https://budget.example/callback',
      institutionId: SANDBOX,
      referenceId: 'budget-ref-1',
      maxHistoricalDays: 90,
      accessValidForDays: 30,
    });
    expect(session).toMatchObject({ status: 'CR', accounts: [], reference: 'budget-ref-1', institution_id: SANDBOX });
    expect(session.link).toMatch(new RegExp(`/console/gocardless/requisitions/${session.id}$`));
    const requisition = await nordigen.requisition.getRequisitionById(session.id);
    expect(requisition.status).toBe('LN');
    expect(requisition.accounts).toHaveLength(1);
    const bankAccount = nordigen.account(requisition.accounts[0]);

    expect(await bankAccount.getMetadata()).toMatchObject({
      id: requisition.accounts[0],
      status: 'READY',
      iban: ibanOf(accountId),
    });
    const details = await bankAccount.getDetails();
    const mine = await sandbankAccount(user, accountId);
    expect(details.account).toMatchObject({ iban: mine.iban, bic: mine.bic, currency: 'PLN', name: 'Konto osobiste' });

    // max_historical_days (90): the payment 120 days ago is outside, and asking for it is refused.
    let { transactions } = await bankAccount.getTransactions();
    expect(
      transactions.booked.map((t: { remittanceInformationUnstructured: string }) => t.remittanceInformationUnstructured),
    ).toEqual(['Wypłata']);
    expect(transactions.booked[0]).toMatchObject({
      transactionAmount: { amount: '1000.00', currency: 'PLN' },
      debtorName: 'ACME',
    });
    const tooOld = await refusal(bankAccount.getTransactions({ dateFrom: daysAgo(100).slice(0, 10) }));
    expect(tooOld.status).toBe(400);
    expect(Object.keys(tooOld.body).sort()).toEqual(['detail', 'status_code', 'summary']);

    // A pending card payment: in `pending`, held from the available balance, not from the booked one.
    const payment = await pendingCard(user, accountId, -12_34);
    ({ transactions } = await bankAccount.getTransactions());
    expect(transactions.pending).toEqual([
      expect.objectContaining({
        transactionId: payment.id,
        transactionAmount: { amount: '-12.34', currency: 'PLN' },
        creditorName: 'Żabka',
      }),
    ]);
    const balancesOf = async () =>
      Object.fromEntries(
        (await bankAccount.getBalances()).balances.map((b: { balanceType: string; balanceAmount: { amount: string } }) => [
          b.balanceType,
          b.balanceAmount.amount,
        ]),
      ) as Record<string, string>;
    let world = await sandbankAccount(user, accountId);
    expect(await balancesOf()).toMatchObject({ interimBooked: '1500.00', interimAvailable: '1487.66' });
    expect(world).toMatchObject({ balance: 1500_00, availableBalance: 1487_66 });

    // Posted: the same id moves from pending to booked with the fields GoCardless documents.
    expect((await act(user, payment.id, 'post')).status).toBe(200);
    ({ transactions } = await bankAccount.getTransactions());
    expect(transactions.pending).toEqual([]);
    const booked = transactions.booked[0];
    expect(booked).toMatchObject({
      transactionId: payment.id,
      transactionAmount: { amount: '-12.34', currency: 'PLN' },
      creditorName: 'Żabka',
      proprietaryBankTransactionCode: 'CARD_PAYMENT',
      balanceAfterTransaction: { balanceAmount: { amount: '1487.66', currency: 'PLN' } },
    });
    expect(booked.internalTransactionId).toMatch(/^[0-9a-f]{32}$/);
    expect(booked.bookingDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(booked.bookingDateTime).toMatch(/Z$/);

    // A voided pending payment leaves pending and never books.
    const voided = await pendingCard(user, accountId, -5_00);
    expect((await bankAccount.getTransactions()).transactions.pending).toHaveLength(1);
    expect((await act(user, voided.id, 'void')).status).toBe(200);
    ({ transactions } = await bankAccount.getTransactions());
    expect(transactions.pending).toEqual([]);
    expect(transactions.booked.map((t: { transactionId: string }) => t.transactionId)).not.toContain(voided.id);
    world = await sandbankAccount(user, accountId);
    expect(await balancesOf()).toMatchObject({ interimBooked: '1487.66', interimAvailable: '1487.66' });
    expect(world).toMatchObject({ balance: 1487_66, availableBalance: 1487_66 });

    // The clock: after 2 days the 24 h access token has expired; the refresh token gives a new one.
    const tokens = await nordigen.generateToken();
    await advance(user, 'P2D');
    expect((await refusal(bankAccount.getBalances())).status).toBe(401);
    const refreshed = await nordigen.exchangeToken({ refreshToken: tokens.refresh });
    nordigen.token = refreshed.access;
    expect((await balancesOf()).closingBooked).toBe('1487.66');

    // 30 days of access from linking: on day 31 the agreement has expired.
    await advance(user, 'P29D');
    await nordigen.generateToken();
    const expired = await refusal(bankAccount.getTransactions());
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ type: 'AccessExpiredError', status_code: 401 });
    expect((await nordigen.requisition.getRequisitionById(session.id)).status).toBe('EX');
  });
});
