/**
 * Model-based property test: random sequences of simulations (new, replayed, conflicting) and
 * closes run against the real API and against a tiny in-memory model of the rules; every answer
 * must match the model, and afterwards the database ledger must be exact.
 */

import { openAccount, simulate } from '@sandbank/testing/fixtures';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';

interface ModelAccount {
  name: string;
  balance: number;
  closed: boolean;
  /** externalTxnId → the payload it was booked with. */
  booked: Map<string, { amount: number; description: string }>;
}
type Model = ModelAccount[];
interface Real {
  user: TestUser;
  ids: string[];
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ LOG_LEVEL: 'warn' });
});
afterAll(() => app.close());

const ACCOUNTS = 2;
/** Outcomes seen across all runs: the test also proves it exercised every rule. */
const seen = new Map<string, number>();
const tally = (status: number, code: string | undefined) => {
  const key = `${status} ${code ?? ''}`.trim();
  seen.set(key, (seen.get(key) ?? 0) + 1);
};

class Simulate implements fc.AsyncCommand<Model, Real> {
  readonly account: number;
  readonly amount: number;
  readonly key: string | undefined;
  readonly description: string;
  constructor(account: number, amount: number, key: string | undefined, description: string) {
    this.account = account;
    this.amount = amount;
    this.key = key;
    this.description = description;
  }
  check = () => true;
  async run(model: Model, real: Real) {
    const state = model[this.account] as ModelAccount;
    const body = { accountId: real.ids[this.account] as string, amount: this.amount, description: this.description };
    const res = await simulate(app, real.user, this.key ? { ...body, externalTxnId: this.key } : body);
    tally(res.status, res.body.code);
    const earlier = this.key ? state.booked.get(this.key) : undefined;
    if (earlier) {
      const same = earlier.amount === this.amount && earlier.description === this.description;
      expect([res.status, res.body.code]).toEqual(same ? [200, undefined] : [409, 'IDEMPOTENCY_CONFLICT']);
      if (same) expect(res.body.data.balance).toBe(state.balance);
    } else if (state.closed) {
      expect([res.status, res.body.code]).toEqual([409, 'ACCOUNT_CLOSED']);
    } else if (state.balance + this.amount < 0) {
      expect([res.status, res.body.code]).toEqual([422, 'INSUFFICIENT_FUNDS']);
    } else {
      expect(res.status).toBe(201);
      state.balance += this.amount;
      expect(res.body.data.balance).toBe(state.balance);
      state.booked.set(res.body.data.transaction.externalTxnId, { amount: this.amount, description: this.description });
    }
  }
  toString = () => `simulate(${this.account}, ${this.amount}, ${this.key}, ${JSON.stringify(this.description)})`;
}

/** Debits exactly the model's balance, so closes get a chance to succeed. */
class Drain implements fc.AsyncCommand<Model, Real> {
  readonly account: number;
  constructor(account: number) {
    this.account = account;
  }
  check = (model: Readonly<Model>) => (model[this.account]?.balance ?? 0) > 0;
  async run(model: Model, real: Real) {
    const state = model[this.account] as ModelAccount;
    await new Simulate(this.account, -state.balance, undefined, 'drain').run(model, real);
  }
  toString = () => `drain(${this.account})`;
}

class Close implements fc.AsyncCommand<Model, Real> {
  readonly account: number;
  readonly confirm: 'right' | 'wrong-name' | 'wrong-password';
  constructor(account: number, confirm: Close['confirm']) {
    this.account = account;
    this.confirm = confirm;
  }
  check = () => true;
  async run(model: Model, real: Real) {
    const state = model[this.account] as ModelAccount;
    const res = await app.call('POST', `/v1/accounts/${real.ids[this.account]}/close`, {
      token: real.user.accessToken,
      body: {
        name: this.confirm === 'wrong-name' ? `${state.name}!` : state.name,
        password: this.confirm === 'wrong-password' ? 'not-the-password' : real.user.password,
      },
    });
    tally(res.status, res.body.code);
    if (state.closed) expect([res.status, res.body.code]).toEqual([409, 'ACCOUNT_CLOSED']);
    else if (this.confirm === 'wrong-name') expect([res.status, res.body.code]).toEqual([422, 'CONFIRMATION_MISMATCH']);
    else if (this.confirm === 'wrong-password') expect([res.status, res.body.code]).toEqual([403, 'INVALID_PASSWORD']);
    else if (state.balance !== 0) expect([res.status, res.body.code]).toEqual([409, 'BALANCE_NOT_ZERO']);
    else {
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('closed');
      state.closed = true;
    }
  }
  toString = () => `close(${this.account}, ${this.confirm})`;
}

const account = fc.integer({ min: 0, max: ACCOUNTS - 1 });
const simulation = fc
  .record({
    account,
    amount: fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: -5000, max: -1 })),
    key: fc.option(fc.constantFrom('k1', 'k2', 'k3', 'k4'), { nil: undefined }),
    description: fc.constantFrom('', 'rent', 'coffee'),
  })
  .map(({ account, amount, key, description }) => new Simulate(account, amount, key, description));
const drain = account.map((a) => new Drain(a));
const close = fc
  .record({ account, confirm: fc.constantFrom<Close['confirm']>('right', 'right', 'wrong-name', 'wrong-password') })
  .map(({ account, confirm }) => new Close(account, confirm));
// Simulations are listed four times so that accounts live a while before they are closed.
const commands = fc.commands([simulation, simulation, simulation, simulation, drain, close], { size: 'max', maxCommands: 40 });

it('answers every sequence of simulations and closes as the model does, and the ledger stays exact', async () => {
  await fc.assert(
    fc.asyncProperty(commands, async (cmds) => {
      const user = await app.createUser();
      const names = Array.from({ length: ACCOUNTS }, (_, i) => `Account ${i}`);
      const ids = await Promise.all(names.map((name) => openAccount(app, user, name)));
      const model: Model = names.map((name) => ({ name, balance: 0, closed: false, booked: new Map() }));
      await fc.asyncModelRun(() => ({ model, real: { user, ids } }), cmds);
      for (const [i, id] of ids.entries()) {
        const ledger = await ledgerOf(app, id);
        expectConsistent(ledger);
        expect(ledger.balance).toBe(model[i]?.balance);
        expect(ledger.status).toBe(model[i]?.closed ? 'closed' : 'open');
      }
    }),
    { numRuns: 30 },
  );
  expect([...seen.keys()].sort()).toEqual(
    [
      '200',
      '201',
      '403 INVALID_PASSWORD',
      '409 ACCOUNT_CLOSED',
      '409 BALANCE_NOT_ZERO',
      '409 IDEMPOTENCY_CONFLICT',
      '422 CONFIRMATION_MISMATCH',
      '422 INSUFFICIENT_FUNDS',
    ].sort(),
  );
}, 120_000);
