/**
 * Twenty tests of a budgeting app, each on a fresh Sandbank world forked from one snapshot, all at
 * once. The snapshot is made once (`ensureSnapshot` finds it by name on later runs); every test
 * changes its own world as it likes; `withWorld` removes each world when its test ends.
 *
 * Needs SANDBANK_URL and SANDBANK_API_KEY (scripts/worlds-example.ts sets both).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { ensureSnapshot, type SandboxWorld, withWorld } from '@sandbank/client';
import { importTransactions, ledger, spendingByCategory } from '../src/budget.ts';

const scenario = JSON.parse(readFileSync(new URL('./family.json', import.meta.url), 'utf8'));
let snapshot = '';

before(async () => {
  snapshot = (await ensureSnapshot({ name: 'worlds-suite family v1', scenario })).id;
});

const bank = (world: SandboxWorld) => ({ baseUrl: world.baseUrl, apiKey: world.apiKey.key, owner: world.id });

async function accountsOf(world: SandboxWorld) {
  const { data } = await world.rest.GET('/v1/accounts');
  return data?.data ?? [];
}

async function book(world: SandboxWorld, body: Record<string, unknown>) {
  const { data, response } = await world.rest.POST('/v1/simulations/transaction', { body: body as never });
  assert.equal(response.status, 201);
  return data?.data.transaction;
}

interface Case {
  name: string;
  run(world: SandboxWorld, i: number): Promise<void>;
}

const CASES: Case[] = [
  {
    name: 'imports a year of history, as many rows as the bank has',
    async run(world) {
      const imported = await importTransactions(bank(world));
      assert.ok(imported.length > 2_000, `${imported.length} rows`);
      assert.equal(new Set(imported.map((t) => t.id)).size, imported.length);
    },
  },
  {
    name: 'starts from the same world every time',
    async run(world) {
      const names = (await accountsOf(world)).map((account) => account.name).sort();
      assert.deepEqual(names, ['Konto osobiste', 'Konto wspólne', 'Oszczędności']);
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
      assert.equal(posted.response.status, 200);
      const after = spendingByCategory(ledger(await importTransactions(bank(world)))).restaurants ?? 0;
      assert.equal(after - before, 600);
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
      const entries = ledger(await importTransactions(bank(world)));
      assert.equal(entries.has(hold?.id ?? ''), false);
    },
  },
  {
    name: 'its own bookings stay in its own world',
    async run(world, i) {
      const [main] = await accountsOf(world);
      const before = main?.balance ?? 0;
      await book(world, { accountId: main?.id, amount: -(i + 1), description: `only here ${i}` });
      const [after] = await accountsOf(world);
      assert.equal(after?.balance, before - (i + 1));
    },
  },
];

describe('a budgeting app on disposable worlds', { concurrency: true }, () => {
  for (let i = 0; i < 20; i++) {
    it(`test ${String(i + 1).padStart(2, '0')}: ${CASES[i % CASES.length]?.name}`, () =>
      withWorld(snapshot, async (world) => CASES[i % CASES.length]?.run(world, i)));
  }
});
