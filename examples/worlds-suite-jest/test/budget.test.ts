/**
 * The worlds suite of examples/worlds-suite under jest: twenty tests of the same budgeting app, each on
 * a fresh Sandbank world forked from one snapshot, all at once (`it.concurrent`). The snapshot is made
 * once, by the global setup (test/global-setup.ts); `withWorld` removes each world when its test ends.
 *
 * Needs SANDBANK_URL and SANDBANK_API_KEY (scripts/worlds-example.ts sets both).
 */
import { describe, expect, it } from '@jest/globals';
import { type SandboxWorld, withWorld } from '@sandbank/client';
import { importTransactions, ledger, spendingByCategory } from '../../worlds-suite/src/budget.ts';

const snapshot = process.env.BANK_SNAPSHOT ?? '';

const bank = (world: SandboxWorld) => ({ baseUrl: world.baseUrl, apiKey: world.apiKey.key, owner: world.id });

async function accountsOf(world: SandboxWorld) {
  const { data } = await world.rest.GET('/v1/accounts');
  return data?.data ?? [];
}

async function book(world: SandboxWorld, body: Record<string, unknown>) {
  const { data, response } = await world.rest.POST('/v1/simulations/transaction', { body: body as never });
  expect(response.status).toBe(201);
  return data?.data.transaction;
}

const CASES: { name: string; run(world: SandboxWorld, i: number): Promise<void> }[] = [
  {
    name: 'imports a year of history, as many rows as the bank has',
    async run(world) {
      const imported = await importTransactions(bank(world));
      expect(imported.length).toBeGreaterThan(2_000);
      expect(new Set(imported.map((t) => t.id)).size).toBe(imported.length);
    },
  },
  {
    name: 'starts from the same world every time',
    async run(world) {
      const names = (await accountsOf(world)).map((account) => account.name).sort();
      expect(names).toEqual(['Konto osobiste', 'Konto wspólne', 'Oszczędności']);
    },
  },
  {
    name: 'counts a pending card payment once, also after it posts with a tip',
    async run(world, i) {
      const [main] = await accountsOf(world);
      const pending = await book(world, {
        accountId: main?.id,
        amount: -4_000,
        description: 'Pizzeria',
        status: 'pending',
        category: 'restaurants',
        externalTxnId: `pizza-${i}`,
      });
      const before = spendingByCategory(ledger(await importTransactions(bank(world)))).restaurants ?? 0;
      const posted = await world.rest.POST('/v1/transactions/{id}/post', {
        params: { path: { id: pending?.id ?? '' } },
        body: { amount: -4_600 },
      });
      expect(posted.response.status).toBe(200);
      const after = spendingByCategory(ledger(await importTransactions(bank(world)))).restaurants ?? 0;
      expect(after - before).toBe(600);
    },
  },
  {
    name: 'a voided hold leaves the budget',
    async run(world, i) {
      const [main] = await accountsOf(world);
      const hold = await book(world, {
        accountId: main?.id,
        amount: -12_345,
        description: 'Hotel deposit',
        status: 'pending',
        category: 'other',
        externalTxnId: `hold-${i}`,
      });
      await world.rest.POST('/v1/transactions/{id}/void', { params: { path: { id: hold?.id ?? '' } } });
      expect(ledger(await importTransactions(bank(world))).has(hold?.id ?? '')).toBe(false);
    },
  },
  {
    name: 'its own bookings stay in its own world',
    async run(world, i) {
      const [main] = await accountsOf(world);
      const before = main?.balance ?? 0;
      await book(world, { accountId: main?.id, amount: -(i + 1), description: `only here ${i}` });
      const [after] = await accountsOf(world);
      expect(after?.balance).toBe(before - (i + 1));
    },
  },
];

describe('a budgeting app on disposable worlds (jest)', () => {
  it('has its snapshot from the global setup', () => {
    expect(snapshot).toMatch(/^[0-9a-f-]{36}$/);
  });

  for (let i = 0; i < 20; i++) {
    const testCase = CASES[i % CASES.length];
    if (!testCase) continue;
    it.concurrent(`test ${String(i + 1).padStart(2, '0')}: ${testCase.name}`, () =>
      withWorld(snapshot, (world) => testCase.run(world, i)));
  }
});
