/**
 * Shared by the personality tests of both aggregator faces (docs/faces/personalities.md): Actual
 * Budget's own normalisers, from @actual-app/sync-server (installed and exposed by
 * scripts/ensure-actual-bank-normalisers.sh), one account's day-to-day history, and the native API's
 * truth about it, with the ids a bank with `datedIds` gives its booked entries.
 */
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { expect } from 'vitest';
import type { Personality } from '../../src/faces/personalities.ts';
import type { Loose, TestApp, TestUser } from '../helpers.ts';
import { lifecycleCalls } from '../lifecycle-calls.ts';

export type Raw = Record<string, unknown> & { transactionAmount: { amount: string } };
export interface Normalised {
  transactionId?: string;
  transactionAmount: { amount: string };
  payeeName: string;
  date: string;
  notes?: string;
}
/** A bank file's export (packages/sync-server/src/app-gocardless/banks/bank.interface.ts). */
export interface ActualBank {
  institutionIds: string[];
  normalizeTransaction(transaction: Raw, booked: boolean): Normalised | null;
  sortTransactions(transactions: Raw[]): Raw[];
  calculateStartingBalance(sorted: Raw[], balances: unknown[]): number;
}
export interface ActualNormalisers {
  BankFactory(institutionId: string): ActualBank;
  normalizeEnableBankingTransaction(transaction: Loose): Normalised;
}

const SCRIPT = new URL('../../../../scripts/ensure-actual-bank-normalisers.sh', import.meta.url).pathname;

/** Actual's normalisers, as its sync server runs them (installs the package the first time). */
export async function loadActualNormalisers(): Promise<ActualNormalisers> {
  const out = execFileSync('bash', [SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 900_000 });
  return (await import(pathToFileURL(out.trim().split('\n').at(-1) ?? '').href)) as ActualNormalisers;
}

export const warsawDay = (instant: unknown) =>
  new Date(String(instant)).toLocaleDateString('en-CA', { timeZone: 'Europe/Warsaw' });

/**
 * One account's history: a salary from Pracodawca worth two days back and an Orlen card payment booked
 * the same day, then a day later a Żabka card payment booked (its value day the day before) and a
 * Biedronka one still pending. Names keep their case under Actual's title-casing of payees.
 */
export async function seedAccount(app: TestApp, user: TestUser): Promise<string> {
  const { act, pendingCard } = lifecycleCalls(() => app);
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
  expect((await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { by: 'P1D' } })).status).toBe(200);
  expect((await act(user, zabka.id, 'post')).status).toBe(200);
  await pendingCard(user, accountId, -45_67, { merchant: 'Biedronka' });
  return accountId;
}

/** The native API's booked transactions (newest posting first, each with the id its bank gives it) and pending ones. */
export async function truthOf(app: TestApp, user: TestUser, accountId: string, personality: Personality) {
  const res = await app.call('GET', `/v1/accounts/${accountId}/transactions`, { token: user.accessToken });
  const all = res.body.data as Loose[];
  const booked = all.filter((t) => t.status === 'posted').sort((a, b) => Date.parse(a.postedAt) - Date.parse(b.postedAt));
  const seen = new Map<string, number>();
  const dated = personality.quirks.datedIds;
  const withIds = booked.map((t) => {
    const day = warsawDay(t.postedAt);
    const place = (seen.get(day) ?? 0) + 1;
    seen.set(day, place);
    const bankId = dated
      ? `${dated.prefix}${day.replaceAll('-', '')}${String(place).padStart(dated.sequenceDigits, '0')}`
      : String(t.id);
    return { ...t, bankId };
  });
  return { booked: withIds.reverse(), pending: all.filter((t) => t.status === 'pending') };
}
