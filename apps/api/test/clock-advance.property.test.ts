/**
 * Advancing is path-independent (docs/concepts/clock-and-schedules.md): a year in one call, in twelve monthly steps and in
 * random steps gives the same ledger and the same events — same transactions, amounts, dates,
 * statuses and versions, same event types, timestamps and balances. Three fresh worlds get the same
 * schedules and pending transactions (absolute dates), then each travels its own way to one instant.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Starts after every world is created (no backfill can differ), on a whole hour. */
const BASE = Math.floor(Date.now() / HOUR) * HOUR + 2 * HOUR;
const END = new Date(BASE + 365 * DAY).toISOString();

const RULES = [
  'FREQ=MONTHLY;BYMONTHDAY=10',
  'FREQ=MONTHLY;BYMONTHDAY=1',
  'FREQ=MONTHLY;BYMONTHDAY=-1',
  'FREQ=WEEKLY;BYDAY=FR',
  'FREQ=WEEKLY;BYDAY=MO,TH',
  'FREQ=DAILY;INTERVAL=3',
  'FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4',
  'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
];

const worldArb = fc.record({
  schedules: fc.array(
    fc.record({
      rrule: fc.constantFrom(...RULES),
      amount: fc.integer({ min: -400_00, max: 900_00 }).filter((amount) => amount !== 0),
      hourOffset: fc.integer({ min: 0, max: 23 }),
      pending: fc.boolean(),
      timezone: fc.constantFrom('Europe/Warsaw', 'UTC', 'America/New_York'),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  pendings: fc.array(
    fc.record({
      amount: fc.integer({ min: -50_00, max: 50_00 }).filter((amount) => amount !== 0),
      daysBack: fc.integer({ min: 0, max: 5 }),
      after: fc.constantFrom('P2D', 'P10D', 'P45D', 'PT36H'),
      kind: fc.constantFrom('settleAfter', 'expireAfter'),
    }),
    { maxLength: 6 },
  ),
  randomSteps: fc.uniqueArray(fc.integer({ min: 1, max: 364 * 24 }), { minLength: 1, maxLength: 12 }),
});

type World = typeof worldArb extends fc.Arbitrary<infer T> ? T : never;

async function build(world: World): Promise<{ user: TestUser; accountId: string; scheduleIds: string[] }> {
  const user = await app.createUser();
  const opened = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Main' } });
  const accountId = opened.body.data.id;
  const funded = await app.call('POST', '/v1/simulations/transaction', {
    token: user.accessToken,
    body: { accountId, amount: 2_000_00, externalTxnId: 'opening', date: new Date(BASE - 10 * DAY).toISOString() },
  });
  expect(funded.status).toBe(201);
  for (const [index, pending] of world.pendings.entries()) {
    const res = await app.call('POST', '/v1/simulations/transaction', {
      token: user.accessToken,
      body: {
        accountId,
        amount: pending.amount,
        status: 'pending',
        externalTxnId: `p${index}`,
        date: new Date(BASE - 2 * HOUR - pending.daysBack * DAY).toISOString(),
        [pending.kind]: pending.after,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  const scheduleIds: string[] = [];
  for (const scheduled of world.schedules) {
    const res = await app.call('POST', `/v1/accounts/${accountId}/schedules`, {
      token: user.accessToken,
      body: {
        amount: scheduled.amount,
        description: scheduled.rrule,
        rrule: scheduled.rrule,
        timezone: scheduled.timezone,
        startAt: new Date(BASE + scheduled.hourOffset * HOUR).toISOString(),
        ...(scheduled.pending ? { status: 'pending', settleAfter: 'P2D' } : {}),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    scheduleIds.push(res.body.data.id);
  }
  return { user, accountId, scheduleIds };
}

async function travel(user: TestUser, stops: string[]): Promise<void> {
  // The clock keeps moving with wall time: an instant it has reached is behind it a moment later.
  for (const to of new Set(stops)) {
    const res = await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { to } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

/** The world as data, with each world's own ids replaced by stable names. */
async function snapshot({ user, accountId, scheduleIds }: Awaited<ReturnType<typeof build>>) {
  const rename = (text: string) => scheduleIds.reduce((out, id, index) => out.replaceAll(id, `S${index}`), text);
  const { rows: transactions } = await app.db.query(
    `select external_txn_id, amount, date, status, posted_at, version, description from transactions where account_id = $1`,
    [accountId],
  );
  const byExternal = new Map(transactions.map((row) => [row.external_txn_id as string, row]));
  const { rows: events } = await app.db.query(`select type, created_at, payload from events where user_id = $1`, [user.id]);
  const ledger = await ledgerOf(app, accountId);
  expectConsistent(ledger);
  return {
    balance: ledger.balance,
    heldAmount: ledger.heldAmount,
    transactions: [...byExternal.keys()].sort().map((key) => {
      const row = byExternal.get(key);
      return {
        id: rename(key),
        amount: Number(row.amount),
        date: new Date(row.date).toISOString(),
        status: row.status,
        postedAt: row.posted_at && new Date(row.posted_at).toISOString(),
        version: row.version,
      };
    }),
    events: events
      .map((event) => ({
        type: event.type,
        // Set-up events are stamped with each world's own creation time; what the clock fired is dated by it.
        createdAt: new Date(event.created_at).getTime() < BASE ? 'set-up' : new Date(event.created_at).toISOString(),
        transaction: rename(event.payload.transaction.externalTxnId),
        version: event.payload.transaction.version,
        balances: event.payload.balances,
      }))
      .sort((a, b) => `${a.createdAt}${a.transaction}${a.version}`.localeCompare(`${b.createdAt}${b.transaction}${b.version}`)),
  };
}

it('a year in one call, in twelve monthly steps and in random steps: the same ledger and events', async () => {
  await fc.assert(
    fc.asyncProperty(worldArb, async (world) => {
      const [oneCall, monthly, random] = await Promise.all([build(world), build(world), build(world)]);
      await travel(oneCall.user, [END]);
      const months = Array.from({ length: 12 }, (_, month) => {
        const at = new Date(BASE);
        at.setUTCMonth(at.getUTCMonth() + month + 1);
        return at.getTime() < Date.parse(END) ? at.toISOString() : END;
      });
      await travel(monthly.user, [...months, END]);
      const cuts = [...world.randomSteps].sort((a, b) => a - b).map((hours) => new Date(BASE + hours * HOUR).toISOString());
      await travel(random.user, [...cuts, END]);
      const expected = await snapshot(oneCall);
      expect(expected.transactions.length).toBeGreaterThan(world.pendings.length);
      expect(await snapshot(monthly)).toEqual(expected);
      expect(await snapshot(random)).toEqual(expected);
    }),
    { numRuns: 4, seed: 20261123, endOnFailure: true },
  );
}, 120_000);
