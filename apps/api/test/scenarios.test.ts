/**
 * Scenarios (docs/concepts/scenarios.md) over real HTTP: the shipped examples apply, a family history is realistic
 * and keeps every ledger invariant, the same scenario and seed give the same world to two users
 * and in two databases, generated histories do not depend on the day, bad input changes nothing, and the
 * published JSON Schema is the one in the repository.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, type Output, startTestApp, type TestApp, type TestUser, visibleEvents } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';
import { apply, comparable, exported } from './scenario-calls.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const example = (name: string) => JSON.parse(readFileSync(path.join(root, 'examples/scenarios', `${name}.json`), 'utf8'));

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('applying a scenario', () => {
  it('builds a realistic 12-month family world on 3 accounts with one event, every invariant holding', async () => {
    const user = await app.createUser();
    const res = await apply(app, user, { scenario: example('family') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { accounts, transactions, schedules, eventId } = res.body.data;
    expect(accounts.map((account: { key: string }) => account.key)).toEqual(['main', 'joint', 'savings']);
    expect(transactions).toBeGreaterThan(600);
    expect(schedules).toBe(1);
    for (const account of accounts) {
      // Apply writes one scenario.applied event, not one per transaction: the sums, not the events.
      expectConsistent(await ledgerOf(app, account.id), { events: false });
    }
    const { rows } = await app.db.query(`select merchant, category, status, amount from transactions where user_id = $1`, [
      user.id,
    ]);
    const merchants = new Set(rows.map((row) => row.merchant));
    for (const merchant of ['Biedronka', 'Lidl', 'Żabka', 'Orlen', 'PGE', 'Tauron', 'Orange', 'Netflix', 'Spotify']) {
      expect(merchants, merchant).toContain(merchant);
    }
    expect(new Set(rows.map((row) => row.category))).toEqual(
      new Set([
        'transfer',
        'salary',
        'housing',
        'utilities',
        'telecom',
        'subscriptions',
        'groceries',
        'fuel',
        'health',
        'restaurants',
        'shopping',
        'cash',
      ]),
    );
    expect(rows.some((row) => row.status === 'pending')).toBe(true);
    const events = await visibleEvents(app, user, 1);
    expect(events.filter((event) => event.type === 'scenario.applied').map((event) => event.id)).toEqual([eventId]);
    expect(events.find((event) => event.id === eventId)?.data.scenario).toMatchObject({
      seed: 2026,
      transactions,
      schedules: 1,
    });
  });

  it('applies every shipped example, and pending card payments post as the clock passes them', async () => {
    for (const name of ['student', 'freelancer']) {
      const user = await app.createUser();
      const res = await apply(app, user, { scenario: example(name) });
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
      const advanced = await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { by: 'P1M' } });
      expect(advanced.status).toBe(200);
      expect(advanced.body.data.fired.scheduled).toBeGreaterThan(0);
      const { rows } = await app.db.query(
        `select count(*)::int as due from transactions where user_id = $1 and status = 'pending' and settle_at <= $2`,
        [user.id, advanced.body.data.now],
      );
      expect(rows[0].due).toBe(0);
      for (const account of res.body.data.accounts) expectConsistent(await ledgerOf(app, account.id), { events: false });
    }
  });

  it('gives the same world for the same scenario and seed: two users, two databases, and export → apply → export', async () => {
    // Relative times ("-PT3H") resolve at the moment of each apply; pinned once here, what remains
    // to differ is only what the seed decides — and that must not.
    const scenario = example('student');
    const pinned = new Date(Date.now() - 3 * 3_600_000).toISOString();
    scenario.accounts[0].transactions[0].at = pinned;
    scenario.accounts[0].schedules[0].startAt = new Date(Date.now() - 86_400_000).toISOString();
    const first = await app.createUser();
    const second = await app.createUser();
    expect((await apply(app, first, { scenario })).status).toBe(200);
    expect((await apply(app, second, { scenario })).status).toBe(200);
    const one = comparable(await exported(app, first));
    expect(comparable(await exported(app, second))).toEqual(one);
    expect(one.accounts[0].transactions.length).toBeGreaterThan(100);

    const elsewhere = await startTestApp();
    try {
      const stranger = await elsewhere.createUser();
      expect((await apply(elsewhere, stranger, { scenario })).status).toBe(200);
      expect(comparable(await exported(elsewhere, stranger))).toEqual(one);
    } finally {
      await elsewhere.close();
    }

    // The export is itself a scenario: applied to a new user it rebuilds the same world.
    const copy = await app.createUser();
    const raw = await exported(app, first);
    const res = await apply(app, copy, { scenario: raw });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(comparable(await exported(app, copy))).toEqual(comparable(raw));
  });

  it('changes nothing on bad input and says where: profile, rule, bounds, schema, funds, names', async () => {
    const user = await app.createUser();
    const base = { version: 1, seed: 1, accounts: [{ key: 'a', name: 'A', openingBalance: 100 }] };
    const account = base.accounts[0];
    const cases: [unknown, number, string, string][] = [
      [
        { ...base, accounts: [{ ...account, history: { months: 3, profile: 'pirate' } }] },
        400,
        'VALIDATION_ERROR',
        'scenario.accounts.0.history.profile',
      ],
      [
        { ...base, accounts: [{ ...account, schedules: [{ amount: 1, description: 'x', rrule: 'FREQ=SOMETIMES' }] }] },
        400,
        'VALIDATION_ERROR',
        'scenario.accounts.0.schedules.0.rrule',
      ],
      [
        { ...base, accounts: Array.from({ length: 101 }, (_, i) => ({ key: `k${i}`, name: `N${i}` })) },
        422,
        'SCENARIO_TOO_LARGE',
        'scenario.accounts',
      ],
      [
        {
          ...base,
          accounts: [
            { ...account, transactions: Array.from({ length: 50_001 }, () => ({ at: '-P1D', amount: 1, description: '' })) },
          ],
        },
        422,
        'SCENARIO_TOO_LARGE',
        'scenario.accounts.0.transactions',
      ],
      [{ ...base, version: 2 }, 400, 'VALIDATION_ERROR', 'scenario.version'],
      [
        { ...base, accounts: [{ ...account, transactions: [{ at: 'yesterday', amount: 1, description: '' }] }] },
        400,
        'VALIDATION_ERROR',
        'scenario.accounts.0.transactions.0.at',
      ],
      [
        { ...base, accounts: [{ ...account, transactions: [{ at: '-P300000Y', amount: 1, description: '' }] }] },
        400,
        'VALIDATION_ERROR',
        'scenario.accounts.0.transactions.0.at',
      ],
      [
        {
          ...base,
          accounts: [{ ...account, schedules: [{ amount: 1, description: 'x', rrule: 'FREQ=DAILY', startAt: '-P300000Y' }] }],
        },
        400,
        'VALIDATION_ERROR',
        'scenario.accounts.0.schedules.0.startAt',
      ],
      [
        {
          ...base,
          accounts: [
            {
              ...account,
              transactions: [{ at: '-P1D', amount: -1, description: '', status: 'pending', settleAfter: 'P300000Y' }],
            },
          ],
        },
        400,
        'VALIDATION_ERROR',
        'scenario.accounts.0.transactions.0.settleAfter',
      ],
      [
        {
          ...base,
          accounts: [
            {
              ...account,
              schedules: [{ amount: 1, description: 'x', rrule: 'FREQ=DAILY', status: 'pending', settleAfter: 'P300000Y' }],
            },
          ],
        },
        400,
        'VALIDATION_ERROR',
        'scenario.accounts.0.schedules.0.settleAfter',
      ],
      [
        { ...base, accounts: [{ ...account, transactions: [{ at: '-P1D', amount: -500, description: 'too much' }] }] },
        422,
        'INSUFFICIENT_FUNDS',
        'scenario.accounts.0.transactions',
      ],
      [{ ...base, accounts: [account, { ...account, key: 'b' }] }, 409, 'ACCOUNT_NAME_TAKEN', 'scenario.accounts.1.name'],
    ];
    for (const [scenario, status, code, where] of cases) {
      const res = await apply(app, user, { scenario });
      expectRefusal(res, [status, code, where]);
    }
    expect((await app.call('GET', '/v1/accounts', { token: user.accessToken })).body.data).toEqual([]);
    expect((await app.call('GET', '/v1/events', { token: user.accessToken })).body.data).toEqual([]);
  });

  it('keeps sync cursors (the scenario.applied event stands for its rows), and applies after a reset when asked', async () => {
    const user = await app.createUser();
    const cursor = (await app.call('GET', '/v1/transactions/sync', { token: user.accessToken })).body.data.nextCursor;
    const scenario = { version: 1, seed: 1, accounts: [{ key: 'a', name: 'A', openingBalance: 10_00 }] };
    const applied = await apply(app, user, { scenario });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    let added: Output['transactions']['syncTransactions']['data']['added'] = [];
    await expect
      .poll(async () => {
        const page = await app.call('GET', `/v1/transactions/sync?cursor=${cursor}`, { token: user.accessToken });
        added = page.body.data?.added ?? [];
        return added.length;
      })
      .toBe(1);
    expect(added.map((txn) => txn.amount)).toEqual([10_00]);
    // The same names again clash, unless the world is reset first.
    expect((await apply(app, user, { scenario })).status).toBe(409);
    expect((await apply(app, user, { scenario, reset: true })).status).toBe(200);
    expect((await app.call('GET', '/v1/accounts', { token: user.accessToken })).body.data).toHaveLength(1);
    const stale = await app.call('GET', `/v1/transactions/sync?cursor=${cursor}`, { token: user.accessToken });
    expect([stale.status, stale.body.code]).toEqual([410, 'CURSOR_EXPIRED']);
  });
});

describe('the bounds of one apply', () => {
  const transactions = (count: number) => Array.from({ length: count }, () => ({ at: '-P1D', amount: 1, description: '' }));
  const accounts = (count: number) => Array.from({ length: count }, (_, i) => ({ key: `k${i}`, name: `N${i}` }));

  it('answers 422 SCENARIO_TOO_LARGE however far past them, over REST and tRPC, and writes nothing', async () => {
    const user = await app.createUser();
    const cases: [unknown[], string][] = [
      [accounts(101), 'scenario.accounts'],
      [accounts(102), 'scenario.accounts'],
      [accounts(1_000), 'scenario.accounts'],
      [[{ key: 'a', name: 'A', transactions: transactions(50_002) }], 'scenario.accounts.0.transactions'],
      [
        [
          { key: 'a', name: 'A', transactions: transactions(25_000) },
          { key: 'b', name: 'B', transactions: transactions(25_001) },
        ],
        'scenario.accounts.1.transactions',
      ],
    ];
    for (const [list, where] of cases) {
      const scenario = { version: 1, seed: 1, accounts: list };
      const res = await apply(app, user, { scenario });
      expectRefusal(res, [422, 'SCENARIO_TOO_LARGE', where]);
      const viaTrpc = await app.call('POST', '/trpc/scenarios.applyScenario', { token: user.accessToken, body: { scenario } });
      expect([viaTrpc.status, viaTrpc.body.error?.data?.code]).toEqual([422, 'SCENARIO_TOO_LARGE']);
    }
    // Authentication still comes first, and a document that is not one still gets the schema's 400.
    expect(
      (await apply(app, { ...user, accessToken: 'nope' }, { scenario: { version: 1, seed: 1, accounts: accounts(200) } })).status,
    ).toBe(401);
    const malformed = await apply(app, user, { scenario: { version: 1, seed: 1, accounts: 'many' } });
    expect([malformed.status, malformed.body.details?.[0]?.path]).toEqual([400, 'scenario.accounts']);
    expect((await app.call('GET', '/v1/accounts', { token: user.accessToken })).body.data).toEqual([]);
  });

  it('publishes them as the schema’s maxItems', () => {
    const schema = JSON.parse(readFileSync(path.join(root, 'docs/scenario.schema.json'), 'utf8'));
    expect(schema.properties.accounts.maxItems).toBe(100);
    expect(
      schema.$defs?.ScenarioAccount?.properties?.transactions?.maxItems ??
        schema.properties.accounts.items.properties.transactions.maxItems,
    ).toBe(50_000);
  });
});

describe('a generated history', () => {
  const DAY = 86_400_000;
  const WARSAW = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Warsaw',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  /** An instant as a Warsaw calendar day (a day number) and wall time. */
  const warsaw = (iso: string) => {
    const part = Object.fromEntries(WARSAW.formatToParts(new Date(iso)).map(({ type, value }) => [type, value]));
    return {
      day: Date.UTC(Number(part.year), Number(part.month) - 1, Number(part.day)) / DAY,
      time: `${part.hour}:${part.minute}:${part.second}`,
    };
  };
  const lastSunday = (year: number, month: number) => {
    const last = new Date(Date.UTC(year, month, 0, 12));
    return new Date(last.getTime() - last.getUTCDay() * DAY);
  };

  /** Every transaction of the world, relative to the moment of applying: days before it (Warsaw) and wall time. */
  async function relativeWorld(user: TestUser, applied: Output['scenarios']['applyScenario']['data']) {
    const event = await app.call<Output['events']['getEvent']>('GET', `/v1/events/${applied.eventId}`, {
      token: user.accessToken,
    });
    const now = warsaw(event.body.data.createdAt);
    const world: Record<string, { status: string }[]> = {};
    for (const account of applied.accounts) {
      const rows: Output['transactions']['listAccountTransactions']['data'] = [];
      for (let page = 1; ; page++) {
        const res = await app.call<Output['transactions']['listAccountTransactions']>(
          'GET',
          `/v1/accounts/${account.id}/transactions?limit=200&status=all&page=${page}`,
          {
            token: user.accessToken,
          },
        );
        rows.push(...res.body.data);
        if (!res.body.meta.hasMore) break;
      }
      world[account.key] = rows
        .map((row) => {
          const at = warsaw(row.date);
          const { externalTxnId, amount, description, merchant, category, status } = row;
          return { externalTxnId, amount, description, merchant, category, status, days: at.day - now.day, time: at.time };
        })
        .sort((a, b) => a.externalTxnId.localeCompare(b.externalTxnId));
    }
    return world;
  }

  it('is the same relative to now on any day of applying: other weekdays, month ends, DST changes, a leap day', async () => {
    const scenario = {
      version: 1,
      seed: 99,
      accounts: [
        { key: 'main', name: 'Konto', openingBalance: 300_000, history: { months: 3, profile: 'family' } },
        { key: 'young', name: 'Studenckie', openingBalance: 50_000, history: { months: 2, profile: 'student' } },
        { key: 'firm', name: 'Firmowe', openingBalance: 900_000, history: { months: 1, profile: 'freelancer' } },
      ],
    };
    const wall = Date.now();
    const year = new Date(wall).getUTCFullYear();
    const candidates = [
      new Date(Date.UTC(year, new Date(wall).getUTCMonth() + 1, 1, 10)), // the first of next month
      new Date(wall + 45 * DAY + 7 * 3_600_000), // another weekday and hour, a month and a half on
      lastSunday(year + 1, 3), // the day Warsaw springs forward
      lastSunday(year + 1, 10), // the day it falls back
      ...[year + 1, year + 2].filter((y) => y % 4 === 0).map((y) => new Date(Date.UTC(y, 1, 29, 21))), // a leap day
    ];
    // The clock only goes forward, at most two years in one advance.
    const targets = [null, ...candidates.filter((at) => at.getTime() > wall + DAY && at.getTime() < wall + 700 * DAY)];
    expect(targets.length).toBeGreaterThanOrEqual(4);
    const worlds = [];
    for (const target of targets) {
      const user = await app.createUser();
      if (target) {
        const advanced = await app.call('POST', '/v1/clock/advance', {
          token: user.accessToken,
          body: { to: target.toISOString() },
        });
        expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
      }
      const res = await apply(app, user, { scenario });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      worlds.push(await relativeWorld(user, res.body.data));
    }
    const [first, ...others] = worlds;
    expect(first?.main?.length).toBeGreaterThan(150);
    expect(first?.main?.some((row) => row.status === 'pending')).toBe(true);
    for (const [index, world] of others.entries())
      expect(world, `applied on ${targets[index + 1]?.toISOString()}`).toEqual(first);
  });
});

it('publishes the JSON Schema that docs/scenario.schema.json holds (run `pnpm scenario-schema` after changing the format)', async () => {
  const res = await app.call('GET', '/v1/scenarios/schema');
  expect(res.status).toBe(200);
  expect(res.body).toEqual(JSON.parse(readFileSync(path.join(root, 'docs/scenario.schema.json'), 'utf8')));
  expect(res.body.properties.accounts.items.properties.history.properties.profile.enum).toEqual([
    'student',
    'family',
    'freelancer',
    'abroad',
  ]);
});
