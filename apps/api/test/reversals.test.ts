/**
 * Reversals over real HTTP (docs/concepts/lifecycle.md): partial and full refunds of a posted transaction, never beyond
 * it, idempotent per externalTxnId (also when identical requests race), and ifVersion.
 */
import { simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';
import { lifecycleCalls } from './lifecycle-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { funded, act, patch, account, eventsOf, pendingCard } = lifecycleCalls(() => app);

describe('POST /v1/transactions/:id/reverse', () => {
  it('refunds in parts, never beyond the original, each reversal a new posted transaction with reversalOf', async () => {
    const { user, accountId } = await funded();
    const purchase = (await simulate(app, user, { accountId, amount: -40_00, merchant: 'Lidl' })).body.data.transaction;
    const part = await act(user, purchase.id, 'reverse', { amount: 15_00 });
    expect(part.status).toBe(201);
    expect(part.body.data.transaction).toMatchObject({
      amount: 15_00,
      status: 'posted',
      reversalOf: purchase.id,
      merchant: 'Lidl',
      description: expect.stringContaining('Reversal'),
    });
    expect(part.body.data.balance).toBe(75_00);
    expect((await act(user, purchase.id, 'reverse', { amount: 15_00 })).status).toBe(200); // the same reversal again
    const tooMuch = await act(user, purchase.id, 'reverse', { amount: 25_01 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.code).toBe('REVERSAL_EXCEEDS_ORIGINAL');
    const rest = await act(user, purchase.id, 'reverse');
    expect(rest.body.data.transaction.amount).toBe(25_00);
    expect(rest.body.data.balance).toBe(100_00);
    expect((await act(user, purchase.id, 'reverse', { amount: 1, externalTxnId: 'one-more' })).body.code).toBe(
      'REVERSAL_EXCEEDS_ORIGINAL',
    );
    expect((await act(user, rest.body.data.transaction.id, 'reverse')).body.code).toBe('INVALID_TRANSITION');
    const types = (await eventsOf(part.body.data.transaction.id)).map((event) => event.type);
    expect(types).toEqual(['transaction.created']);
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('repeating a full reversal ({}) answers the reversal it booked and changes nothing, also after partial ones', async () => {
    const { user, accountId } = await funded();
    const whole = (await simulate(app, user, { accountId, amount: -40_00 })).body.data.transaction;
    const first = await act(user, whole.id, 'reverse');
    expect(first.status).toBe(201);
    expect(first.body.data.transaction.amount).toBe(40_00);
    const again = await act(user, whole.id, 'reverse');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(first.body.data.transaction.externalTxnId).toBe(`rev_${whole.id}`);
    // After partial reversals the rest is booked under its own key, never mistaken for an earlier partial one.
    const split = (await simulate(app, user, { accountId, amount: -40_00 })).body.data.transaction;
    expect((await act(user, split.id, 'reverse', { amount: 10_00 })).status).toBe(201);
    expect((await act(user, split.id, 'reverse', { amount: 20_00 })).status).toBe(201);
    const rest = await act(user, split.id, 'reverse');
    expect(rest.status).toBe(201);
    expect(rest.body.data.transaction.amount).toBe(10_00);
    const restAgain = await act(user, split.id, 'reverse');
    expect(restAgain.status).toBe(200);
    expect(restAgain.body.data.transaction).toEqual(rest.body.data.transaction);
    // Nothing left and a request that is not a repeat: refused, with a message that says why.
    const more = await act(user, split.id, 'reverse', { externalTxnId: 'another-refund' });
    expect(more.status).toBe(422);
    expect(more.body).toMatchObject({ code: 'REVERSAL_EXCEEDS_ORIGINAL', message: expect.stringContaining('fully reversed') });
    expect(await account(user, accountId)).toMatchObject({ balance: 100_00 });
    expect(await eventsOf(first.body.data.transaction.id)).toHaveLength(1);
    expect(await eventsOf(rest.body.data.transaction.id)).toHaveLength(1);
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('two identical partial reversals are one; another of the same amount takes its own externalTxnId', async () => {
    const { user, accountId } = await funded();
    const purchase = (await simulate(app, user, { accountId, amount: -40_00 })).body.data.transaction;
    const first = await act(user, purchase.id, 'reverse', { amount: 10_00, description: 'Zwrot' });
    expect(first.status).toBe(201);
    expect(first.body.data.transaction.externalTxnId).toBe(`rev_${purchase.id}_1000`);
    const repeat = await act(user, purchase.id, 'reverse', { amount: 10_00, description: 'Zwrot' });
    expect(repeat.status).toBe(200);
    expect(repeat.body.data).toEqual(first.body.data);
    expect((await act(user, purchase.id, 'reverse', { amount: 10_00 })).status).toBe(200); // no description: any matches
    const otherText = await act(user, purchase.id, 'reverse', { amount: 10_00, description: 'Another refund' });
    expect(otherText.status).toBe(409);
    expect(otherText.body.code).toBe('IDEMPOTENCY_CONFLICT');
    const second = await act(user, purchase.id, 'reverse', { amount: 10_00, externalTxnId: 'refund-2' });
    expect(second.status).toBe(201);
    expect(second.body.data.balance).toBe(80_00);
    const elsewhere = (await simulate(app, user, { accountId, amount: -5_00 })).body.data.transaction;
    const reused = await act(user, elsewhere.id, 'reverse', { externalTxnId: 'refund-2' });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await account(user, accountId)).toMatchObject({ balance: 75_00 });
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('identical reversal requests racing book one reversal; the others answer it with 200', async () => {
    const { user, accountId } = await funded();
    const full = (await simulate(app, user, { accountId, amount: -40_00 })).body.data.transaction;
    const partial = (await simulate(app, user, { accountId, amount: -30_00 })).body.data.transaction;
    const race = (id: string, body: Record<string, unknown>) =>
      Promise.all(Array.from({ length: 8 }, () => act(user, id, 'reverse', body)));
    const [fulls, partials] = await Promise.all([race(full.id, {}), race(partial.id, { amount: 10_00 })]);
    for (const answers of [fulls, partials]) {
      expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((res) => res.body.data.transaction.id)).size).toBe(1);
      expect(await eventsOf(answers[0]?.body.data.transaction.id)).toHaveLength(1);
    }
    const { rows } = await app.db.query(
      'select reversal_of, amount from transactions where reversal_of is not null and account_id = $1',
      [accountId],
    );
    expect(rows.map((row) => [row.reversal_of, Number(row.amount)]).sort()).toEqual(
      [
        [full.id, 40_00],
        [partial.id, 10_00],
      ].sort(),
    );
    expect(await account(user, accountId)).toMatchObject({ balance: 80_00 });
    expectConsistent(await ledgerOf(app, accountId));
  });

  it("honours ifVersion (the original's): 409 VERSION_CONFLICT once it has moved on, nothing booked", async () => {
    const { user, accountId } = await funded();
    const purchase = (await simulate(app, user, { accountId, amount: -40_00 })).body.data.transaction;
    expect((await patch(user, purchase.id, { description: 'LIDL WARSZAWA' })).body.data.transaction.version).toBe(2);
    const stale = await act(user, purchase.id, 'reverse', { amount: 10_00, ifVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('VERSION_CONFLICT');
    expect(await account(user, accountId)).toMatchObject({ balance: 60_00 });
    const booked = await act(user, purchase.id, 'reverse', { amount: 10_00, ifVersion: 2 });
    expect(booked.status).toBe(201);
    // The reversal is a new transaction: the original stays at version 2, so the same request repeats.
    const retry = await act(user, purchase.id, 'reverse', { amount: 10_00, ifVersion: 2 });
    expect(retry.status).toBe(200);
    expect(retry.body.data).toEqual(booked.body.data);
    await patch(user, purchase.id, { category: 'groceries' });
    const moved = await act(user, purchase.id, 'reverse', { amount: 10_00, ifVersion: 2 });
    expect(moved.status).toBe(409);
    expect(moved.body.code).toBe('VERSION_CONFLICT');
    expect((await act(user, purchase.id, 'reverse', { ifVersion: 0 })).status).toBe(400);
    expect(await account(user, accountId)).toMatchObject({ balance: 70_00 });
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('refuses to reverse a pending transaction', async () => {
    const { user, accountId } = await funded();
    const card = await pendingCard(user, accountId);
    expect((await act(user, card.id, 'reverse')).body.code).toBe('INVALID_TRANSITION');
  });
});
