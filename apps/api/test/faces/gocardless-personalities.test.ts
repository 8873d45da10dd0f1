/**
 * The banks with personalities (docs/faces/personalities.md) through Actual Budget's own per-bank code:
 * nordigen-node reads each bank's transactions and balances from our GoCardless face, Actual's
 * `BankFactory` (from @actual-app/sync-server, scripts/ensure-actual-bank-normalisers.sh) picks that
 * bank's normaliser exactly as Actual's sync server does, and what it makes of our data must be the
 * native API's truth: amount, day, payee, notes, the bank's id, the order and the starting balance.
 * Each quirk is also checked on the wire, so removing one fails here even where Actual would cope.
 */
import { minorToDecimal } from '@sandbank/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONALITIES, type Personality } from '../../src/faces/personalities.ts';
import { gocardlessCalls } from '../gocardless-calls.ts';
import { type Loose, startTestApp, type TestApp, type TestUser } from '../helpers.ts';
import {
  type ActualNormalisers,
  loadActualNormalisers,
  type Raw,
  seedAccount,
  truthOf,
  warsawDay,
} from './personalities-helpers.ts';

let app: TestApp;
let actual: ActualNormalisers;
beforeAll(async () => {
  actual = await loadActualNormalisers();
  app = await startTestApp();
}, 900_000);
afterAll(() => app?.close());

const { client, decide } = gocardlessCalls(() => app);

/** The banks Actual 26.9.0 has a normaliser for; the others go through its IntegrationBank. */
const OWN_NORMALISER = ['MBANK_RETAIL_BREXPLPW', 'ING_PL_INGBPLPW', 'REVOLUT_REVOLT21'];
/** mBank's and ING's normalisers take `valueDate` as the transaction's day; IntegrationBank takes `bookingDate`. */
const READS_VALUE_DATE = ['MBANK_RETAIL_BREXPLPW', 'ING_PL_INGBPLPW'];

async function linked(user: TestUser, personality: Personality) {
  const accountId = await seedAccount(app, user);
  const nordigen = await client(user);
  const { id } = personality.gocardless;
  const session = await nordigen.initSession({
    redirectUrl: 'https://app.example/cb',
    institutionId: id,
    referenceId: `ref-${id}`,
  });
  const decided = await decide(user, session.id, { approve: true, accountIds: [accountId] });
  expect(decided.body.data.status).toBe('LN');
  return { accountId, bankAccount: nordigen.account(decided.body.data.accounts[0]) };
}

describe.each(PERSONALITIES.map((p) => [p.gocardless.id, p] as const))(
  '%s through Actual Budget',
  (institutionId, personality) => {
    it("Actual's normaliser for the bank turns our data into the native API's truth", async () => {
      const bank = actual.BankFactory(institutionId);
      const hasOwn = bank.institutionIds.includes(institutionId);
      expect(hasOwn).toBe(OWN_NORMALISER.includes(institutionId));

      const user = await app.createUser();
      const { accountId, bankAccount } = await linked(user, personality);
      const { transactions } = await bankAccount.getTransactions();
      const { balances } = await bankAccount.getBalances();
      const truth = await truthOf(app, user, accountId, personality);
      const raw = transactions.booked as Raw[];
      expect(raw).toHaveLength(3);

      // Actual re-sorts what it receives: from the reverse order, the bank's ids must restore ours.
      if (personality.quirks.datedIds) {
        const sorted = bank.sortTransactions([...raw].reverse().map((t) => ({ ...t })));
        expect(sorted.map((t) => t.transactionId)).toEqual(truth.booked.map((t) => t.bankId));
      }

      const normalised = raw.map((t) => bank.normalizeTransaction({ ...t }, true));
      expect(
        normalised.map((t) => ({
          id: t?.transactionId,
          amount: t?.transactionAmount.amount,
          date: t?.date,
          payee: t?.payeeName,
          notes: t?.notes,
        })),
      ).toEqual(
        truth.booked.map((t) => ({
          id: t.bankId,
          amount: minorToDecimal(Number(t.amount), 'PLN'),
          date: warsawDay(READS_VALUE_DATE.includes(institutionId) ? t.date : t.postedAt),
          payee: t.merchant,
          notes: t.description,
        })),
      );
      const pending = (transactions.pending as Raw[]).map((t) => bank.normalizeTransaction({ ...t }, false));
      expect(pending.map((t) => ({ amount: t?.transactionAmount.amount, date: t?.date, payee: t?.payeeName }))).toEqual(
        truth.pending.map((t) => ({
          amount: minorToDecimal(Number(t.amount), 'PLN'),
          date: warsawDay(t.date),
          payee: t.merchant,
        })),
      );

      // mBank's code subtracts every booked amount from `interimBooked`; ING's starts from the oldest
      // entry's `balanceAfterTransaction`. Either way the account held 0 before these three.
      if (READS_VALUE_DATE.includes(institutionId)) {
        expect(bank.calculateStartingBalance(bank.sortTransactions([...raw]), balances)).toBe(0);
      }

      // Each quirk on the wire.
      const { quirks } = personality;
      for (const t of transactions.pending as Raw[]) expect('transactionId' in t).toBe(!quirks.pendingWithoutId);
      for (const t of raw) {
        expect('balanceAfterTransaction' in t).toBe(!quirks.withoutBalanceAfter);
        expect('remittanceInformationUnstructuredArray' in t).toBe(Boolean(quirks.remittanceAsArray));
        expect('remittanceInformationUnstructured' in t).toBe(!quirks.remittanceAsArray);
      }
    });
  },
);

describe('banks with personalities in the GoCardless institution list', () => {
  it('lists each bank under the id, name and BIC GoCardless gives it, with its days', async () => {
    const nordigen = await client(await app.createUser());
    const listed = (await nordigen.institution.getInstitutions({ country: 'PL' })) as Loose[];
    for (const { gocardless } of PERSONALITIES) {
      expect(listed.find((i) => i.id === gocardless.id)).toMatchObject({
        name: gocardless.name,
        bic: gocardless.bic,
        transaction_total_days: String(gocardless.transactionTotalDays),
        max_access_valid_for_days: String(gocardless.maxAccessValidForDays),
        countries: ['PL'],
      });
    }
  });

  it('counts reads against the PSD2 daily limit where the bank has one', async () => {
    const personality = PERSONALITIES.find((p) => p.gocardless.id === 'PKO_BPKOPLPW');
    if (!personality?.quirks.dailyLimit) throw new Error('PKO BP has no daily limit');
    const user = await app.createUser();
    const { bankAccount } = await linked(user, personality);
    for (let read = 0; read < personality.quirks.dailyLimit; read++) await bankAccount.getTransactions();
    await expect(bankAccount.getTransactions()).rejects.toMatchObject({ response: { status: 429 } });
  });
});
