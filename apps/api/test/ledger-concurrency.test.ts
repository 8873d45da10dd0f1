/**
 * Many clients hammer the real HTTP API with credits and debits on several accounts; afterwards
 * the ledger must be exact: for every account balance = Σ amounts ≥ 0, every 201 has its row and
 * event, no row or event lacks its 201, and the balances the API reported chain into one serial history.
 */

import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';

const CLIENTS = 24;
const PER_CLIENT = 50;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ LOG_LEVEL: 'warn' });
});
afterAll(() => app.close());

/** A small seeded generator, so a failing run can be repeated. */
function random(seed: number) {
  let state = seed >>> 0;
  return (max: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * max);
  };
}

interface Booked {
  id: string;
  amount: number;
  balance: number;
  transaction: Record<string, unknown>;
}

/**
 * The reported balances are consistent with one serial order iff the edges (balance − amount →
 * balance) form an Eulerian path from 0: in/out degrees balance, and the edges are connected.
 */
function expectSerialHistory(booked: Booked[], finalBalance: number): void {
  const degree = new Map<number, number>();
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    const p = parent.get(x) ?? x;
    if (p === x) return x;
    const root = find(p);
    parent.set(x, root);
    return root;
  };
  for (const { amount, balance } of booked) {
    const from = balance - amount;
    degree.set(from, (degree.get(from) ?? 0) + 1);
    degree.set(balance, (degree.get(balance) ?? 0) - 1);
    parent.set(find(from), find(balance));
  }
  if (booked.length === 0) return;
  const unbalanced = [...degree].filter(([, d]) => d !== 0);
  const expected =
    finalBalance === 0
      ? []
      : [
          [0, 1],
          [finalBalance, -1],
        ];
  expect(unbalanced.sort(([a], [b]) => a - b)).toEqual(expected.sort(([a = 0], [b = 0]) => a - b));
  const roots = new Set([...degree.keys()].map(find));
  expect(roots.size).toBe(1);
}

it(`keeps every balance exact under ${CLIENTS} concurrent clients and ${CLIENTS * PER_CLIENT} simulations`, async () => {
  const users = [await app.createUser(), await app.createUser()];
  const accounts: { user: TestUser; id: string }[] = [];
  for (const user of users) for (let i = 0; i < 3; i++) accounts.push({ user, id: await openAccount(app, user) });

  const booked = new Map<string, Booked[]>(accounts.map((a) => [a.id, []]));
  const outcomes: Record<string, number> = {};
  let lowestObserved = 0;
  let running = true;

  // One observer reads balances throughout the run: none is ever below zero.
  const observer = (async () => {
    while (running) {
      for (const account of accounts) {
        const res = await app.call('GET', `/v1/accounts/${account.id}`, { token: account.user.accessToken });
        lowestObserved = Math.min(lowestObserved, res.body.data.balance);
      }
    }
  })();

  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const next = random(client + 1);
      const sent: { accountId: string; amount: number; externalTxnId: string }[] = [];
      for (let i = 0; i < PER_CLIENT; i++) {
        const account = accounts[next(accounts.length)] as (typeof accounts)[number];
        // Mostly new transactions (credits 1..1000, debits 1..1500: some are refused), some retries.
        const retry = sent.length > 0 && next(10) === 0 ? sent[next(sent.length)] : undefined;
        const body = retry ?? {
          accountId: account.id,
          amount: next(2) === 0 ? 1 + next(1000) : -(1 + next(1500)),
          externalTxnId: `c${client}-${i}`,
        };
        const owner = accounts.find((a) => a.id === body.accountId)?.user as TestUser;
        const res = await simulate(app, owner, body);
        const outcome = `${res.status} ${res.body.code ?? ''}`.trim();
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        if (res.status === 201) {
          sent.push(body);
          const { transaction, balance } = res.body.data;
          booked.get(body.accountId)?.push({ id: transaction.id, amount: transaction.amount, balance, transaction });
        } else if (res.status === 200) {
          expect(retry).toBeDefined();
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await observer;

  const total = Object.values(outcomes).reduce((a, b) => a + b, 0);
  console.info(
    `${total} simulations by ${CLIENTS} clients in ${seconds.toFixed(2)} s (${(total / seconds).toFixed(0)}/s)`,
    outcomes,
  );
  expect(total).toBe(CLIENTS * PER_CLIENT);
  expect(Object.keys(outcomes).sort()).toEqual(expect.arrayContaining(['201', '422 INSUFFICIENT_FUNDS']));
  for (const outcome of Object.keys(outcomes)) expect(['200', '201', '422 INSUFFICIENT_FUNDS']).toContain(outcome);
  expect(lowestObserved).toBe(0);

  for (const account of accounts) {
    const ledger = await ledgerOf(app, account.id);
    const created = booked.get(account.id) ?? [];
    expectConsistent(ledger);
    expect(ledger.transactions.map((row) => row.id).sort()).toEqual(created.map((b) => b.id).sort());
    const payloads = new Map(ledger.events.map((event) => [event.payload.transaction.id, event.payload.transaction]));
    for (const b of created) {
      expect(b.balance).toBeGreaterThanOrEqual(0);
      expect(payloads.get(b.id)).toEqual(b.transaction);
    }
    expectSerialHistory(created, ledger.balance);
  }
}, 120_000);

it('keeps balance, hold and versions exact while posts, voids, reversals, patches and new debits race on one account', async () => {
  const user = await app.createUser();
  const accountId = await openAccount(app, user);
  expect((await simulate(app, user, { accountId, amount: 50_000 })).status).toBe(201);
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await simulate(app, user, { accountId, amount: i % 5 === 0 ? 700 : -(300 + i * 37), status: 'pending' });
    expect(res.status).toBe(201);
    ids.push(res.body.data.transaction.id);
  }
  const call = (method: string, path: string, body: unknown) => app.call(method, path, { token: user.accessToken, body });
  const outcomes: Record<string, number> = {};
  let lowestAvailable = 0;
  let running = true;
  const observer = (async () => {
    while (running) {
      const res = await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken });
      lowestAvailable = Math.min(lowestAvailable, res.body.data.availableBalance);
    }
  })();

  await Promise.all(
    Array.from({ length: 16 }, async (_, client) => {
      const next = random(1000 + client);
      for (let i = 0; i < 25; i++) {
        const id = ids[next(ids.length)] as string;
        const op = next(6);
        const res =
          op === 0
            ? await call('POST', `/v1/transactions/${id}/post`, next(2) ? { amount: -(200 + next(3000)) } : {})
            : op === 1
              ? await call('POST', `/v1/transactions/${id}/void`, {})
              : op === 2
                ? await call('POST', `/v1/transactions/${id}/reverse`, {
                    amount: 1 + next(400),
                    externalTxnId: `r${client}-${i}`,
                  })
                : op === 3
                  ? await call('PATCH', `/v1/transactions/${id}`, { description: `edit ${client}-${i}` })
                  : await simulate(app, user, {
                      accountId,
                      amount: -(1 + next(4000)),
                      status: next(2) ? 'pending' : 'posted',
                    });
        if (op === 4 && res.status === 201) ids.push(res.body.data.transaction.id);
        const outcome =
          `${['post', 'void', 'reverse', 'patch', 'debit', 'debit'][op]} ${res.status} ${res.body.code ?? ''}`.trim();
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        expect(res.status).toBeLessThan(500);
      }
    }),
  );
  running = false;
  await observer;
  console.info('lifecycle race outcomes', outcomes);
  expect(lowestAvailable).toBeGreaterThanOrEqual(0);
  for (const kind of ['post 200', 'void 200', 'reverse 201', 'patch 200', 'debit 201']) {
    expect(Object.keys(outcomes)).toContain(kind);
  }
  expectConsistent(await ledgerOf(app, accountId));
}, 120_000);
