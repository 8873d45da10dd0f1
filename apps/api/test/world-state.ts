/**
 * A world as its owner sees it through the API, for the disposable-worlds tests: every account, every
 * transaction (all statuses), every schedule and its runs, and the clock — with what a fork changes
 * (ids, and every instant by one shift) taken out, so two worlds compare with `toEqual`.
 */
import { expect } from 'vitest';
import type { Output, TestApp } from './helpers.ts';

type Account = Output['accounts']['getAccount']['data'];
type Transaction = Output['transactions']['getTransaction']['data'];
type Schedule = Output['schedules']['listAccountSchedules']['data'][number];
type Run = Output['schedules']['listScheduleRuns']['data'][number];

export interface WorldState {
  clock: { now: string; offsetMs: number };
  accounts: Account[];
  transactions: Transaction[];
  schedules: (Schedule & { runList: Run[] })[];
}

/** Every row of a list endpoint, following its pages. */
async function all<Row>(app: TestApp, token: string, path: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const res = await app.call<{ data: Row[]; meta: { hasMore: boolean } }>(
      'GET',
      `${path}${path.includes('?') ? '&' : '?'}limit=200&page=${page}`,
      { token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    if (!res.body.meta.hasMore) return rows;
  }
}

/** The world of `token`, as its API shows it. */
export async function readWorld(app: TestApp, token: string): Promise<WorldState> {
  const clock = (await app.call<Output['clock']['getClock']>('GET', '/v1/clock', { token })).body.data;
  const accounts = await all<Account>(app, token, '/v1/accounts');
  const transactions: Transaction[] = [];
  const schedules: WorldState['schedules'] = [];
  for (const account of accounts) {
    transactions.push(...(await all<Transaction>(app, token, `/v1/accounts/${account.id}/transactions?status=all`)));
    const listed = await app.call<Output['schedules']['listAccountSchedules']>('GET', `/v1/accounts/${account.id}/schedules`, {
      token,
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    for (const schedule of listed.body.data) {
      const runs = await app.call<Output['schedules']['listScheduleRuns']>('GET', `/v1/schedules/${schedule.id}/runs?limit=200`, {
        token,
      });
      expect(runs.status, JSON.stringify(runs.body)).toBe(200);
      schedules.push({ ...schedule, runList: runs.body.data });
    }
  }
  return { clock, accounts, transactions, schedules };
}

const ms = (value: string | null) => (value === null ? null : Date.parse(value));
const back = (value: string | null, shift: number) => (value === null ? null : new Date(Date.parse(value) - shift).toISOString());

/**
 * The world with ids replaced by positions (an account by its index, a transaction by its index in
 * the world's history, a schedule by its index) and every instant moved back by `shift` ms.
 */
export function comparableWorld(world: WorldState, shift: number) {
  const accountIndex = new Map(world.accounts.map((account, index) => [account.id, index]));
  const transactionIndex = new Map(world.transactions.map((transaction, index) => [transaction.id, index]));
  const scheduleIndex = new Map(world.schedules.map((schedule, index) => [schedule.id, index]));
  const scheduleRef = (text: string) =>
    text.replace(/sch_([0-9a-f-]{36})_/g, (_, id: string) => `sch_#${scheduleIndex.get(id) ?? `foreign ${id}`}_`);
  return {
    offsetMs: world.clock.offsetMs,
    accounts: world.accounts.map(({ id: _, iban: __, createdAt, closedAt, ...account }) => ({
      ...account,
      createdAt: back(createdAt, shift),
      closedAt: back(closedAt, shift),
    })),
    transactions: world.transactions.map(({ id: _, accountId, date, postedAt, reversalOf, externalTxnId, ...transaction }) => ({
      ...transaction,
      account: accountIndex.get(accountId),
      externalTxnId: scheduleRef(externalTxnId),
      date: back(date, shift),
      postedAt: back(postedAt, shift),
      reversalOf: reversalOf === null ? null : (transactionIndex.get(reversalOf) ?? `foreign ${reversalOf}`),
    })),
    schedules: world.schedules.map(({ id: _, accountId, startAt, nextRunAt, createdAt, runList, ...schedule }) => ({
      ...schedule,
      account: accountIndex.get(accountId),
      startAt: back(startAt, shift),
      nextRunAt: back(nextRunAt, shift),
      createdAt: back(createdAt, shift),
      runList: runList.map((run) => ({
        ...run,
        dueAt: back(run.dueAt, shift),
        transactionId:
          run.transactionId === null ? null : (transactionIndex.get(run.transactionId) ?? `foreign ${run.transactionId}`),
      })),
    })),
  };
}

/** Every id a world shows (accounts, transactions, schedules). */
export const idsOf = (world: WorldState) => [
  ...world.accounts.map((account) => account.id),
  ...world.transactions.map((transaction) => transaction.id),
  ...world.schedules.map((schedule) => schedule.id),
];

/** How far the copy's instants lie from the original's: one shift for every transaction, or a failure. */
export function shiftBetween(original: WorldState, copy: WorldState): number {
  expect(copy.transactions.length).toBe(original.transactions.length);
  const shifts = new Set(
    copy.transactions.map((transaction, index) => (ms(transaction.date) ?? 0) - (ms(original.transactions[index]!.date) ?? 0)),
  );
  expect([...shifts], 'every date moved by the same shift').toHaveLength(1);
  return [...shifts][0] ?? 0;
}
