/**
 * A world for the statement tests: one account whose history has what statements get wrong —
 * Polish letters, `&`, `<`, quotes, emoji and very long text, a pending card payment posted with a
 * tip, a partial reversal, entries on several days — and the calls that download its statements.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../../helpers.ts';

const DAY_MS = 86_400_000;
/** `days` whole days before now, as an ISO timestamp. */
export const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
/** The local day in Warsaw of an instant, `YYYY-MM-DD` (statement periods are Warsaw days). */
export const warsawDay = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date(iso));

export const HARD_TEXT = {
  salary: 'Wynagrodzenie <październik> & "premia" — ZAŻÓŁĆ GĘŚLĄ JAŹŃ',
  merchant: 'Żabka "Polska" & Co <sp. z o.o.> 🛒',
  groceries: "Zakupy 🛒🍎 żółć & <b>nie</b> 'tag'",
  long: `Opłata ${'bardzo długi opis zażółć gęślą jaźń & <x> '.repeat(11)}koniec`,
};

export interface StatementWorld {
  user: TestUser;
  accountId: string;
  /** The account's booked balance now, as the API shows it. */
  balance: number;
}

export async function buildStatementWorld(app: TestApp): Promise<StatementWorld> {
  const user = await app.createUser();
  const accountId = await openAccount(app, user, 'Konto "Codzienne" & <oszczędności>');
  const book = async (body: Record<string, unknown>) => {
    const res = await simulate(app, user, { accountId, ...body } as never);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.transaction as { id: string };
  };
  await book({ amount: 5_000_00, date: daysAgo(40), description: HARD_TEXT.salary, category: 'salary' });
  const groceries = await book({
    amount: -123_45,
    date: daysAgo(30),
    description: HARD_TEXT.groceries,
    merchant: HARD_TEXT.merchant,
    category: 'groceries',
  });
  await book({ amount: -1, date: daysAgo(20), description: HARD_TEXT.long, category: 'other' });
  await book({ amount: -200_00, date: daysAgo(10), description: 'Wypłata z bankomatu', category: 'cash' });
  const card = await book({
    amount: -25_00,
    status: 'pending',
    description: 'Restauracja',
    merchant: 'Bistro Ąę',
    category: 'restaurants',
  });
  const act = (id: string, verb: string, body: Record<string, unknown>) =>
    app.call('POST', `/v1/transactions/${id}/${verb}`, { token: user.accessToken, body });
  expect((await act(card.id, 'post', { amount: -30_00 })).status).toBe(200); // the tip
  expect((await act(groceries.id, 'reverse', { amount: 23_45, description: 'Zwrot: reklamacja' })).status).toBe(201);
  await book({ amount: -10_00, status: 'pending', description: 'Still pending', merchant: 'Kiosk' });
  const account = await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken });
  return { user, accountId, balance: account.body.data.balance };
}

/** What a test file's statements run against: a test app and the world built in it. */
export interface Given {
  app: TestApp;
  world: StatementWorld;
}

/**
 * The setup every statement test file shares: before all of the file's tests, `prepare` (e.g.
 * install an importer), a fresh test app and `buildStatementWorld` in it; after them, the app
 * closes. The returned object is filled in by the time the tests run.
 */
export function useStatementWorld(prepare?: () => void | Promise<void>): Given {
  const given = {} as Given;
  beforeAll(async () => {
    await prepare?.();
    given.app = await startTestApp();
    given.world = await buildStatementWorld(given.app);
  }, 900_000); // a first run installs an importer (AqBanking, Actual's) before the world
  afterAll(() => given.app?.close());
  return given;
}

export interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
}

export async function download(app: TestApp, path: string, token: string): Promise<Download> {
  const response = await fetch(app.url + path, { headers: { authorization: `Bearer ${token}` } });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') };
}

/** The posted transactions of the account as the API lists them, oldest posting first. */
export async function postedOf(app: TestApp, world: StatementWorld) {
  const res = await app.call('GET', `/v1/accounts/${world.accountId}/transactions?limit=200&status=posted`, {
    token: world.user.accessToken,
  });
  expect(res.status).toBe(200);
  const rows = res.body.data as { id: string; amount: number; postedAt: string; description: string }[];
  return rows.sort((a, b) => a.postedAt.localeCompare(b.postedAt) || a.id.localeCompare(b.id));
}
