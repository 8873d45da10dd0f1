/**
 * The transaction lifecycle over real HTTP (docs/concepts/lifecycle.md): pending holds, post (with a tip), void,
 * patch, versions, the events each writes, the status filter, and settlement of due pending
 * transactions. Reversals: reversals.test.ts.
 */
import { fireDueItems, settleDueTransaction } from '@sandbank/core';
import { simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, startTestApp, type TestApp } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';
import { lifecycleCalls } from './lifecycle-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { funded, act, patch, account, eventsOf, pendingCard } = lifecycleCalls(() => app);

describe('pending transactions and the hold', () => {
  it('a pending debit holds its amount: availableBalance drops, balance does not', async () => {
    const { user, accountId } = await funded();
    const res = await simulate(app, user, { accountId, amount: -30_00, status: 'pending', merchant: 'Orlen', category: 'fuel' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ balance: 100_00, availableBalance: 70_00 });
    expect(res.body.data.transaction).toMatchObject({ status: 'pending', postedAt: null, version: 1, merchant: 'Orlen' });
    expect(await account(user, accountId)).toMatchObject({ balance: 100_00, heldAmount: 30_00, availableBalance: 70_00 });
    const [created] = await eventsOf(res.body.data.transaction.id);
    expect(created?.payload.balances).toEqual({ balance: 100_00, availableBalance: 70_00 });
  });

  it('a debit, pending or posted, needs the available balance; a pending credit counts only once posted', async () => {
    const { user, accountId } = await funded();
    await pendingCard(user, accountId, -80_00);
    expect((await simulate(app, user, { accountId, amount: -30_00 })).body.code).toBe('INSUFFICIENT_FUNDS');
    expect((await simulate(app, user, { accountId, amount: -30_00, status: 'pending' })).body.code).toBe('INSUFFICIENT_FUNDS');
    const credit = await simulate(app, user, { accountId, amount: 50_00, status: 'pending' });
    expect(credit.body.data).toMatchObject({ balance: 100_00, availableBalance: 20_00 });
    expect((await simulate(app, user, { accountId, amount: -30_00 })).body.code).toBe('INSUFFICIENT_FUNDS');
    expect((await act(user, credit.body.data.transaction.id, 'post')).body.data).toMatchObject({
      balance: 150_00,
      availableBalance: 70_00,
    });
    expect((await simulate(app, user, { accountId, amount: -30_00 })).status).toBe(201);
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('refuses settleAfter or expireAfter beyond P100Y (P300000Y adds up to no date), or with a negative part', async () => {
    const { user, accountId } = await funded();
    for (const [field, value] of [
      ['settleAfter', 'P300000Y'],
      ['expireAfter', 'P300000Y'],
      ['settleAfter', 'PT9999999999999999999S'],
      ['expireAfter', 'P100Y1D'],
      ['settleAfter', 'P1M-29D'],
    ]) {
      const res = await simulate(app, user, { accountId, amount: -1_00, status: 'pending', [field as string]: value });
      expectRefusal(res, [400, 'VALIDATION_ERROR', field as string], `${field} ${value}`);
    }
    expect((await ledgerOf(app, accountId)).transactions).toHaveLength(1);
    const longest = await simulate(app, user, { accountId, amount: -1_00, status: 'pending', expireAfter: 'P100Y' });
    expect(longest.status).toBe(201);
  });

  it('refuses settleAfter or expireAfter on a posted transaction, and a malformed duration', async () => {
    const { user, accountId } = await funded();
    const posted = await simulate(app, user, { accountId, amount: -1, settleAfter: 'P2D' });
    expect(posted.status).toBe(400);
    expect(posted.body.details).toContainEqual({ path: 'settleAfter', message: expect.any(String) });
    const malformed = await simulate(app, user, { accountId, amount: -1, status: 'pending', expireAfter: 'two days' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toContainEqual({ path: 'expireAfter', message: expect.any(String) });
    expect((await ledgerOf(app, accountId)).transactions).toHaveLength(1);
  });
});

describe('POST /v1/transactions/:id/post', () => {
  it('posts a card payment with a tip: same id, new amount, balance moves, hold released, one transaction.updated', async () => {
    const { user, accountId } = await funded();
    const card = await pendingCard(user, accountId, -40_00);
    const res = await act(user, card.id, 'post', { amount: -46_00 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ balance: 54_00, availableBalance: 54_00 });
    expect(res.body.data.transaction).toMatchObject({ id: card.id, status: 'posted', amount: -46_00, version: 2 });
    expect(res.body.data.transaction.postedAt).toEqual(expect.any(String));
    const events = await eventsOf(card.id);
    expect(events.map((event) => event.type)).toEqual(['transaction.created', 'transaction.updated']);
    expect(events[1]?.payload).toEqual({
      transaction: res.body.data.transaction,
      previous: { status: 'pending', postedAt: null, amount: -40_00 },
      changes: ['status', 'postedAt', 'amount'],
      balances: { balance: 54_00, availableBalance: 54_00 },
    });
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('answers a repeated post unchanged, and refuses a different amount, a changed sign and a voided one', async () => {
    const { user, accountId } = await funded();
    const card = await pendingCard(user, accountId);
    const sign = await act(user, card.id, 'post', { amount: 25_00 });
    expect(sign.status).toBe(400);
    expect(sign.body.details).toContainEqual({ path: 'amount', message: expect.stringContaining('negative') });
    const first = await act(user, card.id, 'post');
    const again = await act(user, card.id, 'post', { amount: -25_00 });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect((await act(user, card.id, 'post', { amount: -26_00 })).body.code).toBe('INVALID_TRANSITION');
    const voided = await pendingCard(user, accountId);
    await act(user, voided.id, 'void');
    const refused = await act(user, voided.id, 'post');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('INVALID_TRANSITION');
    expect((await eventsOf(card.id)).map((event) => event.type)).toEqual(['transaction.created', 'transaction.updated']);
  });

  it('refuses to post what was never pending (booked posted, a reversal), with or without ifVersion', async () => {
    const { user, accountId } = await funded();
    const booked = (await simulate(app, user, { accountId, amount: 30_00 })).body.data.transaction;
    const reversal = (await act(user, booked.id, 'reverse', { amount: 10_00 })).body.data.transaction;
    for (const body of [{}, { amount: booked.amount }, { ifVersion: booked.version }]) {
      const res = await act(user, booked.id, 'post', body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([409, 'INVALID_TRANSITION']);
    }
    expect((await act(user, reversal.id, 'post')).body.code).toBe('INVALID_TRANSITION');
    // A post repeated without its tip is not the same post either.
    const card = await pendingCard(user, accountId);
    await act(user, card.id, 'post', { amount: -30_00 });
    expect((await act(user, card.id, 'post')).body.code).toBe('INVALID_TRANSITION');
    expect((await eventsOf(booked.id)).map((event) => event.type)).toEqual(['transaction.created']);
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('a post that needs more than is available is 422 and changes nothing', async () => {
    const { user, accountId } = await funded();
    const card = await pendingCard(user, accountId, -90_00);
    const res = await act(user, card.id, 'post', { amount: -100_01 });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('INSUFFICIENT_FUNDS');
    expect(await account(user, accountId)).toMatchObject({ balance: 100_00, heldAmount: 90_00 });
    expect(await eventsOf(card.id)).toHaveLength(1);
  });

  it('honours ifVersion: 409 VERSION_CONFLICT when the transaction has moved on', async () => {
    const { user, accountId } = await funded();
    const card = await pendingCard(user, accountId);
    expect((await patch(user, card.id, { description: 'ZABKA Z1234 WARSZAWA' })).body.data.transaction.version).toBe(2);
    const stale = await act(user, card.id, 'post', { ifVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('VERSION_CONFLICT');
    expect((await act(user, card.id, 'post', { ifVersion: 2 })).body.data.transaction.version).toBe(3);
  });
});

describe('POST /v1/transactions/:id/void', () => {
  it('releases the hold, leaves the default history and writes transaction.removed with reason voided', async () => {
    const { user, accountId } = await funded();
    const card = await pendingCard(user, accountId, -60_00);
    const res = await act(user, card.id, 'void');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ balance: 100_00, availableBalance: 100_00 });
    expect(res.body.data.transaction).toMatchObject({ status: 'voided', version: 2, postedAt: null });
    const [, removed] = await eventsOf(card.id);
    expect(removed).toMatchObject({ type: 'transaction.removed', payload: { reason: 'voided' } });
    const history = (query: string) =>
      app.call('GET', `/v1/accounts/${accountId}/transactions${query}`, { token: user.accessToken });
    expect((await history('')).body.data.map((t: { id: string }) => t.id)).not.toContain(card.id);
    expect((await history('')).body.meta.total).toBe(1);
    expect((await history('?status=voided')).body.data.map((t: { id: string }) => t.id)).toEqual([card.id]);
    expect((await history('?status=all')).body.meta.total).toBe(2);
    expect((await history('?status=bogus')).status).toBe(400);
    expect((await act(user, card.id, 'void')).body.data).toEqual(res.body.data);
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('refuses to void a posted transaction (reverse it instead)', async () => {
    const { user, accountId } = await funded();
    const posted = (await simulate(app, user, { accountId, amount: -5_00 })).body.data.transaction;
    const res = await act(user, posted.id, 'void');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('INVALID_TRANSITION');
  });
});

describe('PATCH /v1/transactions/:id', () => {
  it('cleans up description, merchant and category: version + 1, transaction.updated with previous and changes', async () => {
    const { user, accountId } = await funded();
    const card = await pendingCard(user, accountId);
    const res = await patch(user, card.id, { description: 'Żabka Z1234', merchant: null, category: 'shopping' });
    expect(res.status).toBe(200);
    expect(res.body.data.transaction).toMatchObject({
      description: 'Żabka Z1234',
      merchant: null,
      category: 'shopping',
      version: 2,
    });
    const [, updated] = await eventsOf(card.id);
    expect(updated?.payload).toMatchObject({
      previous: { description: '', merchant: 'Żabka', category: 'groceries' },
      changes: ['description', 'merchant', 'category'],
    });
    expect((await patch(user, card.id, { category: 'shopping' })).body.data.transaction.version).toBe(2);
    expect(await eventsOf(card.id)).toHaveLength(2);
    expect((await patch(user, card.id, { category: 'nonsense' })).status).toBe(400);
    await act(user, card.id, 'void');
    expect((await patch(user, card.id, { description: 'x' })).body.code).toBe('INVALID_TRANSITION');
  });
});

describe('repeating a transition with the ifVersion it was made on', () => {
  const typesOf = async (id: string) => (await eventsOf(id)).map((event) => event.type);

  it('a retried post, void or patch whose answer was lost is 200 with the transaction as it is, writing nothing', async () => {
    const { user, accountId } = await funded();
    const card = await pendingCard(user, accountId, -40_00);
    const posted = await act(user, card.id, 'post', { ifVersion: 1 });
    expect(posted.body.data.transaction.version).toBe(2);
    const postAgain = await act(user, card.id, 'post', { ifVersion: 1 });
    expect(postAgain.status).toBe(200);
    expect(postAgain.body.data).toEqual(posted.body.data);
    const tipped = await pendingCard(user, accountId, -20_00);
    const withTip = await act(user, tipped.id, 'post', { amount: -23_00, ifVersion: 1 });
    expect((await act(user, tipped.id, 'post', { amount: -23_00, ifVersion: 1 })).body.data).toEqual(withTip.body.data);
    const voidable = await pendingCard(user, accountId, -5_00);
    const voided = await act(user, voidable.id, 'void', { ifVersion: 1 });
    const voidAgain = await act(user, voidable.id, 'void', { ifVersion: 1 });
    expect(voidAgain.status).toBe(200);
    expect(voidAgain.body.data).toEqual(voided.body.data);
    const cleaned = await patch(user, card.id, { description: 'ŻABKA Z1234', category: 'groceries', ifVersion: 2 });
    expect(cleaned.body.data.transaction.version).toBe(3);
    const patchAgain = await patch(user, card.id, { description: 'ŻABKA Z1234', category: 'groceries', ifVersion: 2 });
    expect(patchAgain.status).toBe(200);
    expect(patchAgain.body.data).toEqual(cleaned.body.data);
    expect(await typesOf(card.id)).toEqual(['transaction.created', 'transaction.updated', 'transaction.updated']);
    expect(await typesOf(tipped.id)).toEqual(['transaction.created', 'transaction.updated']);
    expect(await typesOf(voidable.id)).toEqual(['transaction.created', 'transaction.removed']);
    expect(await account(user, accountId)).toMatchObject({ balance: 37_00, heldAmount: 0 });
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('is 409 VERSION_CONFLICT when the transaction moved on otherwise: changed since, or changed by another transition', async () => {
    const { user, accountId } = await funded();
    const conflict = (res: { status: number; body: { code?: string } }) => {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('VERSION_CONFLICT');
    };
    // Posted as asked, then patched: the transaction has moved on since.
    const later = await pendingCard(user, accountId, -10_00);
    await act(user, later.id, 'post', { ifVersion: 1 });
    await patch(user, later.id, { description: 'cleaned' });
    conflict(await act(user, later.id, 'post', { ifVersion: 1 }));
    // Someone else posted it with a tip: a post without an amount at version 1 would have kept -10.00.
    const tipped = await pendingCard(user, accountId, -10_00);
    await act(user, tipped.id, 'post', { amount: -12_00 });
    conflict(await act(user, tipped.id, 'post', { ifVersion: 1 }));
    // Patched at version 1, then posted: the change from version 1 was not a post.
    const patchedFirst = await pendingCard(user, accountId, -10_00);
    await patch(user, patchedFirst.id, { merchant: 'Lidl' });
    await act(user, patchedFirst.id, 'post');
    conflict(await act(user, patchedFirst.id, 'post', { ifVersion: 1 }));
    // A patch of other fields at version 1: ours (already true) was not the change.
    const otherField = await pendingCard(user, accountId, -10_00);
    await patch(user, otherField.id, { merchant: 'Biedronka' });
    conflict(await patch(user, otherField.id, { category: 'groceries', ifVersion: 1 }));
    // Posted at version 1, so a void made on version 1 is a stale, impossible step.
    const settled = await pendingCard(user, accountId, -10_00);
    await act(user, settled.id, 'post');
    conflict(await act(user, settled.id, 'void', { ifVersion: 1 }));
    expect(await typesOf(later.id)).toEqual(['transaction.created', 'transaction.updated', 'transaction.updated']);
    expectConsistent(await ledgerOf(app, accountId));
  });
});

describe('settlement of due pending transactions', () => {
  it('leaves alone one the client posted after the clock found it due (with a tip: no longer a repeat)', async () => {
    const { user, accountId } = await funded();
    const long = new Date(Date.now() - 5 * 86_400_000);
    const settles = await pendingCard(user, accountId, -10_00, { date: long.toISOString(), settleAfter: 'P2D' });
    const expires = await pendingCard(user, accountId, -20_00, { date: long.toISOString(), expireAfter: 'P3D' });
    await act(user, settles.id, 'post', { amount: -12_00 });
    await act(user, expires.id, 'post');
    const due = (transactionId: string, settleAt: Date | null, expireAt: Date | null) =>
      settleDueTransaction(app.orm.em.fork(), { userId: user.id, transactionId, settleAt, expireAt }, new Date());
    const day = 86_400_000;
    expect(await due(settles.id, new Date(long.getTime() + 2 * day), null)).toBe('unchanged');
    expect(await due(expires.id, null, new Date(long.getTime() + 3 * day))).toBe('unchanged');
    const status = async (id: string) =>
      (await app.db.query('select status, amount from transactions where id = $1', [id])).rows[0];
    expect(await status(settles.id)).toEqual({ status: 'posted', amount: '-1200' });
    expect(await status(expires.id)).toEqual({ status: 'posted', amount: '-2000' });
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('posts those whose settleAfter passed and voids (expired) those whose expireAfter passed, each once', async () => {
    const { user, accountId } = await funded();
    const long = new Date(Date.now() - 5 * 86_400_000).toISOString();
    const settles = await pendingCard(user, accountId, -10_00, { date: long, settleAfter: 'P2D' });
    const expires = await pendingCard(user, accountId, -20_00, { date: long, expireAfter: 'P3D' });
    const later = await pendingCard(user, accountId, -30_00, { settleAfter: 'P2D' });
    const run = () => fireDueItems(app.orm.em.fork(), { userId: user.id, until: new Date(), moveClock: false });
    const [first, second] = await Promise.all([run(), run()]);
    expect((first?.settled ?? 0) + (second?.settled ?? 0)).toBe(1);
    expect((first?.expired ?? 0) + (second?.expired ?? 0)).toBe(1);
    const status = async (id: string) =>
      (await app.db.query('select status, posted_at from transactions where id = $1', [id])).rows[0];
    expect(await status(settles.id)).toMatchObject({ status: 'posted' });
    expect(new Date((await status(settles.id)).posted_at).getTime()).toBe(new Date(long).getTime() + 2 * 86_400_000);
    expect(await status(expires.id)).toMatchObject({ status: 'voided' });
    expect(await status(later.id)).toMatchObject({ status: 'pending' });
    expect((await eventsOf(expires.id)).find((event) => event.type === 'transaction.removed')?.payload.reason).toBe('expired');
    expect(await account(user, accountId)).toMatchObject({ balance: 90_00, heldAmount: 30_00 });
    expectConsistent(await ledgerOf(app, accountId));
  });
});
