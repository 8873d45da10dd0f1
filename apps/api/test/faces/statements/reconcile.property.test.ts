/**
 * Statements reconcile (docs/faces/statements.md) over random lifecycles: credits and debits on past days, pending
 * payments posted with a tip or voided, partial reversals, a clock moved ahead; for random periods
 * (mid-history, empty, ending today). Every format is read back by a parser Sandbank did not write
 * and must show exactly the posted transactions whose posting day (Europe/Warsaw) is in the period,
 * and opening + Σ entries = closing, where the closing is what the API's own history adds up to.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../../helpers.ts';
import { READERS } from './parse-back.ts';
import { download, warsawDay } from './statement-world.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const FORMATS = ['camt.053', 'mt940', 'mt940-cp852', 'ofx', 'ofx1', 'csv'] as const;
const query = (format: (typeof FORMATS)[number]) =>
  format === 'mt940-cp852' ? 'format=mt940&encoding=cp852' : `format=${format}`;

const Step = fc.oneof(
  fc.record({
    kind: fc.constant('credit' as const),
    amount: fc.integer({ min: 1, max: 1_000_000 }),
    daysAgo: fc.integer({ min: 0, max: 40 }),
  }),
  fc.record({
    kind: fc.constant('debit' as const),
    amount: fc.integer({ min: 1, max: 50_000 }),
    daysAgo: fc.integer({ min: 0, max: 40 }),
  }),
  fc.record({
    kind: fc.constant('tip' as const),
    amount: fc.integer({ min: 100, max: 10_000 }),
    tip: fc.integer({ min: 0, max: 500 }),
  }),
  fc.record({ kind: fc.constant('void' as const), amount: fc.integer({ min: 1, max: 10_000 }) }),
  fc.record({ kind: fc.constant('reverse' as const), part: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 72 }) }),
);

type StepValue = typeof Step extends fc.Arbitrary<infer T> ? T : never;

async function live(user: TestUser, accountId: string, steps: StepValue[]): Promise<void> {
  const { status } = await simulate(app, user, {
    accountId,
    amount: 5_000_000,
    date: new Date(Date.now() - 50 * 86_400_000).toISOString(),
  });
  expect(status).toBe(201);
  const debits: { id: string; amount: number }[] = [];
  const act = (id: string, verb: string, body: Record<string, unknown> = {}) =>
    app.call('POST', `/v1/transactions/${id}/${verb}`, { token: user.accessToken, body });
  for (const step of steps) {
    if (step.kind === 'credit' || step.kind === 'debit') {
      const clock = (await app.call('GET', '/v1/clock', { token: user.accessToken })).body.data;
      const date = new Date(new Date(clock.now).getTime() - step.daysAgo * 86_400_000).toISOString();
      const amount = step.kind === 'credit' ? step.amount : -step.amount;
      const res = await simulate(app, user, { accountId, amount, date, description: `${step.kind} & <${step.amount}> "ż"` });
      if (res.status === 201 && amount < 0) debits.push(res.body.data.transaction);
    } else if (step.kind === 'tip' || step.kind === 'void') {
      const res = await simulate(app, user, { accountId, amount: -step.amount, status: 'pending', merchant: 'Bar 🍺' });
      if (res.status !== 201) continue;
      const { id } = res.body.data.transaction;
      if (step.kind === 'tip') await act(id, 'post', { amount: -step.amount - step.tip });
      else await act(id, 'void');
    } else if (step.kind === 'reverse') {
      const original = debits.shift();
      if (original) await act(original.id, 'reverse', { amount: Math.max(1, Math.floor((-original.amount * step.part) / 100)) });
    } else {
      await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { by: `PT${step.hours}H` } });
    }
  }
}

describe('statements reconcile over random lifecycles', () => {
  it('in every format, read back by independent parsers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(Step, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 55 }),
        fc.integer({ min: 0, max: 55 }),
        async (steps, a, b) => {
          const user = await app.createUser();
          const accountId = await openAccount(app, user);
          await live(user, accountId, steps);
          const now = (await app.call('GET', '/v1/clock', { token: user.accessToken })).body.data.now as string;
          const day = (daysAgo: number) => warsawDay(new Date(new Date(now).getTime() - daysAgo * 86_400_000).toISOString());
          const [from, to] = [day(Math.max(a, b)), day(Math.min(a, b))];
          const history = await app.call('GET', `/v1/accounts/${accountId}/transactions?limit=200&status=posted`, {
            token: user.accessToken,
          });
          const posted = (history.body.data as { amount: number; postedAt: string; id: string }[])
            .map((row) => ({ ...row, day: warsawDay(row.postedAt) }))
            .sort((x, y) => x.postedAt.localeCompare(y.postedAt) || x.id.localeCompare(y.id));
          const inPeriod = posted.filter((row) => row.day >= from && row.day <= to).map((row) => row.amount);
          const closing = posted.filter((row) => row.day <= to).reduce((total, row) => total + row.amount, 0);
          for (const format of FORMATS) {
            const file = await download(
              app,
              `/v1/accounts/${accountId}/statement?${query(format)}&from=${from}&to=${to}`,
              user.accessToken,
            );
            expect(file.status, `${format}: ${file.text}`).toBe(200);
            const read = READERS[format]?.(file.bytes);
            expect(read?.amounts, format).toEqual(inPeriod);
            if (format === 'csv' && inPeriod.length === 0) continue; // an empty CSV carries no balance
            expect([read?.opening, read?.closing], format).toEqual([closing - inPeriod.reduce((t, x) => t + x, 0), closing]);
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
