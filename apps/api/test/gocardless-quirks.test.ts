/**
 * The Polish sandbox institutions' quirks as the official client sees them (docs/faces/gocardless.md): each
 * institution's requisition is approved by the owner (the consent decision), then nordigen-node
 * reads transactions whose shape carries that institution's quirk. The daily access limit is
 * counted atomically: of parallel reads beyond it, exactly the limit succeed.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gocardlessCalls } from './gocardless-calls.ts';
import { startTestApp, type TestApp } from './helpers.ts';
import { lifecycleCalls } from './lifecycle-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { client, decide, refusal, advance } = gocardlessCalls(() => app);
const { act, pendingCard } = lifecycleCalls(() => app);
const localDate = (instant: Date) => instant.toLocaleDateString('en-CA', { timeZone: 'Europe/Warsaw' });

/** A user with one account (a salary from ACME two days ago, a pending Żabka payment), linked through `institutionId`. */
async function linkedThrough(institutionId: string) {
  const user = await app.createUser();
  const accountId = await openAccount(app, user, 'Konto');
  const date = new Date(Date.now() - 2 * 86_400_000).toISOString();
  const salary = await simulate(app, user, {
    accountId,
    amount: 5_000_00,
    description: 'Pensja 11/2026',
    merchant: 'ACME',
    date,
  });
  expect(salary.status).toBe(201);
  const payment = await pendingCard(user, accountId, -12_34);
  const nordigen = await client(user);
  const session = await nordigen.initSession({
    redirectUrl: 'https://app.example/cb',
    institutionId,
    referenceId: `ref-${institutionId}`,
  });
  const decided = await decide(user, session.id, { approve: true, accountIds: [accountId] });
  expect(decided.body.data).toMatchObject({ status: 'LN', redirect: `https://app.example/cb?ref=ref-${institutionId}` });
  const bankAccount = nordigen.account(decided.body.data.accounts[0]);
  return { user, nordigen, bankAccount, salaryId: salary.body.data.transaction.id as string, paymentId: payment.id };
}

describe('GoCardless quirk institutions', () => {
  it('SANDBANK_DATY_SNDBPLP1 swaps booking and value dates', async () => {
    const { user, nordigen, bankAccount, paymentId } = await linkedThrough('SANDBANK_DATY_SNDBPLP1');
    const valueDate = localDate(new Date());
    await advance(user, 'P2D');
    await nordigen.generateToken(); // the access token lived 24 h of the world's clock
    expect((await act(user, paymentId, 'post')).status).toBe(200);
    const bookedOn = localDate(new Date(Date.now() + 2 * 86_400_000));
    const [payment] = (await bankAccount.getTransactions()).transactions.booked;
    expect(payment).toMatchObject({ transactionId: paymentId, bookingDate: valueDate, valueDate: bookedOn });
  });

  it('SANDBANK_PREFIKS_SNDBPLP2 prefixes transaction ids and leaves them off pending entries', async () => {
    const { bankAccount, salaryId } = await linkedThrough('SANDBANK_PREFIKS_SNDBPLP2');
    const { booked, pending } = (await bankAccount.getTransactions()).transactions;
    expect(booked[0].transactionId).toBe(`PL-TRX-${salaryId}`);
    expect(pending[0]).not.toHaveProperty('transactionId');
    expect(pending[0].internalTransactionId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('SANDBANK_TYTUL_SNDBPLP3 names the counterparty only in the remittance text', async () => {
    const { bankAccount } = await linkedThrough('SANDBANK_TYTUL_SNDBPLP3');
    const { booked, pending } = (await bankAccount.getTransactions()).transactions;
    expect(booked[0]).not.toHaveProperty('debtorName');
    expect(booked[0].remittanceInformationUnstructured).toBe('NADAWCA: ACME; TYTUŁ: Pensja 11/2026');
    expect(pending[0]).not.toHaveProperty('creditorName');
    expect(pending[0].remittanceInformationUnstructured).toMatch(/^ODBIORCA: Żabka; TYTUŁ: /);
  });

  it('SANDBANK_LIMIT_SNDBPLP4 allows 4 reads a day per account and scope, counted exactly under concurrency', async () => {
    const { bankAccount } = await linkedThrough('SANDBANK_LIMIT_SNDBPLP4');
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () =>
        bankAccount.getTransactions().then(
          () => 200,
          async (error: unknown) => (await refusal(Promise.reject(error))).status,
        ),
      ),
    );
    expect(outcomes.filter((status) => status === 200)).toHaveLength(4);
    expect(outcomes.filter((status) => status === 429)).toHaveLength(6);
    const refused = await refusal(bankAccount.getTransactions());
    expect(refused.body).toMatchObject({ type: 'RateLimitError', status_code: 429 });
    expect(refused.headers.http_x_ratelimit_account_success_remaining).toBe('0');
    expect(Number(refused.headers.http_x_ratelimit_account_success_reset)).toBeGreaterThan(0);
    expect((await bankAccount.getBalances()).balances).toHaveLength(3); // another scope has its own count
  });
});
