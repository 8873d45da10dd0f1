/**
 * The banks with personalities (docs/faces/personalities.md) through Actual Budget's own per-bank code:
 * nordigen-node reads each bank's transactions and balances from our GoCardless face, Actual's
 * `BankFactory` (from @actual-app/sync-server, scripts/ensure-actual-bank-normalisers.sh) picks that
 * bank's normaliser exactly as Actual's sync server does, and what it makes of our data must be the
 * native API's truth: amount, day, payee, notes, the bank's id, the order and the starting balance.
 * Each quirk is also checked on the wire, so removing one fails here.
 */
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { minorToDecimal } from '@sandbank/core';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONALITIES, type Personality } from '../../src/faces/personalities.ts';
import { gocardlessCalls } from '../gocardless-calls.ts';
import { type Loose, startTestApp, type TestApp, type TestUser } from '../helpers.ts';
import { lifecycleCalls } from '../lifecycle-calls.ts';

type Raw = Record<string, unknown> & { transactionAmount: { amount: string } };
interface Normalised extends Raw {
  payeeName: string;
  date: string;
  notes: string;
  transactionId?: string;
}
interface ActualBank {
  institutionIds: string[];
  normalizeTransaction(transaction: Raw, booked: boolean): Normalised | null;
  sortTransactions(transactions: Raw[]): Raw[];
  calculateStartingBalance(sorted: Raw[], balances: unknown[]): number;
}

const SCRIPT = new URL('../../../../scripts/ensure-actual-bank-normalisers.sh', import.meta.url).pathname;

let app: TestApp;
let bankFactory: (institutionId: string) => ActualBank;
beforeAll(async () => {
  const module = execFileSync('bash', [SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 240_000 });
  const actual = (await import(pathToFileURL(module.trim().split('\n').at(-1) ?? '').href)) as {
    BankFactory: typeof bankFactory;
  };
  bankFactory = actual.BankFactory;
  app = await startTestApp();
}, 300_000);
afterAll(() => app?.close());

const { client, decide, advance } = gocardlessCalls(() => app);
const { act, pendingCard } = lifecycleCalls(() => app);
const warsawDay = (instant: string) => new Date(instant).toLocaleDateString('en-CA', { timeZone: 'Europe/Warsaw' });

/**
 * One account, linked through the bank: a salary from Pracodawca worth two days back, an Orlen card
 * payment booked the same day, then a day later a Żabka card payment booked (its value day the day
 * before) and a Biedronka one still pending.
 */
async function linkedAccount(user: TestUser, personality: Personality) {
  const accountId = await openAccount(app, user, 'Konto');
  const salary = await simulate(app, user, {
    accountId,
    amount: 5_000_00,
    description: 'Pensja 11/2026',
    merchant: 'Pracodawca',
    date: new Date(Date.now() - 2 * 86_400_000).toISOString(),
  });
  expect(salary.status).toBe(201);
  expect((await simulate(app, user, { accountId, amount: -9_99, merchant: 'Orlen', description: 'Paliwo' })).status).toBe(201);
  const zabka = await pendingCard(user, accountId, -12_34);
  await advance(user, 'P1D');
  expect((await act(user, zabka.id, 'post')).status).toBe(200);
  await pendingCard(user, accountId, -45_67, { merchant: 'Biedronka' });
  const nordigen = await client(user);
  const { id } = personality.gocardless;
  const session = await nordigen.initSession({ redirectUrl: 'https://app.example/cb', institutionId: id, referenceId: `ref-${id}` });
  const decided = await decide(user, session.id, { approve: true, accountIds: [accountId] });
  expect(decided.body.data.status).toBe('LN');
  return { accountId, bankAccount: nordigen.account(decided.body.data.accounts[0]) };
}

/** The native API's transactions of the account, newest posting first, and the ids the bank gives the booked ones. */
async function truthOf(user: TestUser, accountId: string, personality: Personality) {
  const res = await app.call('GET', `/v1/accounts/${accountId}/transactions`, { token: user.accessToken });
  const all = res.body.data as Loose[];
  const booked = all
    .filter((t) => t.status === 'posted')
    .sort((a, b) => Date.parse(String(a.postedAt)) - Date.parse(String(b.postedAt)));
  const seen = new Map<string, number>();
  const bankIds = booked.map((t) => {
    const day = warsawDay(String(t.postedAt));
    const place = (seen.get(day) ?? 0) + 1;
    seen.set(day, place);
    const dated = personality.quirks.datedIds;
    return dated ? `${dated.prefix}${day.replaceAll('-', '')}${String(place).padStart(dated.sequenceDigits, '0')}` : String(t.id);
  });
  const withIds = booked.map((t, index) => ({ ...t, bankId: bankIds[index] })).reverse();
  return { booked: withIds, pending: all.filter((t) => t.status === 'pending') };
}

/** The day Actual's normaliser for this bank reads: the value day (mBank, ING: `valueDate`), else the booking day. */
const readsValueDate = (personality: Personality) => ['MBANK_RETAIL_BREXPLPW', 'ING_PL_INGBPLPW'].includes(personality.gocardless.id);

describe.each(PERSONALITIES.map((p) => [p.gocardless.id, p] as const))('%s through Actual Budget', (institutionId, personality) => {
  it("Actual's normaliser for the bank turns our data into the native API's truth", async () => {
    const bank = bankFactory(institutionId);
    const hasOwn = bank.institutionIds.includes(institutionId);
    expect(hasOwn).toBe(['MBANK_RETAIL_BREXPLPW', 'ING_PL_INGBPLPW', 'REVOLUT_REVOLT21'].includes(institutionId));

    const user = await app.createUser();
    const { accountId, bankAccount } = await linkedAccount(user, personality);
    const { transactions } = await bankAccount.getTransactions();
    const { balances } = await bankAccount.getBalances();
    const truth = await truthOf(user, accountId, personality);
    const raw = transactions.booked as Raw[];
    expect(raw).toHaveLength(3);

    // Sorting: Actual re-sorts what it receives; from the reverse order the bank's ids must restore ours.
    if (personality.quirks.datedIds) {
      const sorted = bank.sortTransactions([...raw].reverse().map((t) => ({ ...t })));
      expect(sorted.map((t) => t.transactionId)).toEqual(truth.booked.map((t) => t.bankId));
    }

    const normalised = raw.map((t) => bank.normalizeTransaction({ ...t }, true));
    expect(
      normalised.map((t) => ({ id: t?.transactionId, amount: t?.transactionAmount.amount, date: t?.date, payee: t?.payeeName, notes: t?.notes })),
    ).toEqual(
      truth.booked.map((t) => ({
        id: t.bankId,
        amount: minorToDecimal(Number(t.amount), 'PLN'),
        date: warsawDay(String(readsValueDate(personality) ? t.date : t.postedAt)),
        payee: t.merchant,
        notes: t.description,
      })),
    );

    const pending = (transactions.pending as Raw[]).map((t) => bank.normalizeTransaction({ ...t }, false));
    expect(pending.map((t) => ({ amount: t?.transactionAmount.amount, date: t?.date, payee: t?.payeeName }))).toEqual(
      truth.pending.map((t) => ({ amount: minorToDecimal(Number(t.amount), 'PLN'), date: warsawDay(String(t.date)), payee: t.merchant })),
    );

    // Balances: mBank's code subtracts every booked amount from `interimBooked`, ING's starts from the
    // oldest `balanceAfterTransaction`; either way the account opened at 0 before these three.
    if (hasOwn && institutionId !== 'REVOLUT_REVOLT21') {
      expect(bank.calculateStartingBalance(bank.sortTransactions([...raw]), balances)).toBe(0);
    }

    // Each quirk on the wire, so that removing one fails here even where Actual would cope.
    const { quirks } = personality;
    for (const t of transactions.pending as Raw[]) expect('transactionId' in t).toBe(!quirks.pendingWithoutId);
    for (const t of raw) {
      expect('balanceAfterTransaction' in t).toBe(!quirks.withoutBalanceAfter);
      expect('remittanceInformationUnstructuredArray' in t).toBe(Boolean(quirks.remittanceAsArray));
      expect('remittanceInformationUnstructured' in t).toBe(!quirks.remittanceAsArray);
    }
  });
});

describe('banks with personalities in the institution list', () => {
  it('lists each bank under the id, name and BIC GoCardless gives it, with its days', async () => {
    const user = await app.createUser();
    const nordigen = await client(user);
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
});
