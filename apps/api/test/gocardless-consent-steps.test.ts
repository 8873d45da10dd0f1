/**
 * GoCardless's requisition statuses through the consent flow, as nordigen-node reads them: `CR` when
 * created, `GC` once the owner opens the consent page, `SA` once they go on to pick accounts, then
 * `LN` or `RJ` from either step; forwards only, each step stamped with the world's clock; and the
 * world's list of requisitions the console shows.
 */
import { openAccount } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gocardlessCalls, SANDBOX } from './gocardless-calls.ts';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { client, advance, decide } = gocardlessCalls(() => app);
const BANK = 'SANDBANK_DATY_SNDBPLP1';

const step = (user: TestUser, id: string, to: string) =>
  app.call('POST', `/v1/gocardless/requisitions/${id}/step`, { token: user.accessToken, body: { step: to } });
const worldNow = async (user: TestUser) =>
  Date.parse((await app.call('GET', '/v1/clock', { token: user.accessToken })).body.data.now);
/** Runs `act` and checks that the stamp it answers is the world's time while it ran (the world's clock ticks). */
async function onWorldClock(user: TestUser, act: () => Promise<{ stepAt: string }>) {
  const before = await worldNow(user);
  const { stepAt } = await act();
  const after = await worldNow(user);
  expect(Date.parse(stepAt)).toBeGreaterThanOrEqual(before);
  expect(Date.parse(stepAt)).toBeLessThanOrEqual(after);
}

describe('GoCardless consent steps', () => {
  it('moves CR → GC → SA → LN on the world clock, forwards only, as the client reads it', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const nordigen = await client(user);
    const session = await nordigen.initSession({ redirectUrl: 'https://app.example/cb', institutionId: BANK, referenceId: 'a' });
    const status = async () => (await nordigen.requisition.getRequisitionById(session.id)).status;
    expect(await status()).toBe('CR');

    await advance(user, 'PT2H');
    await onWorldClock(user, async () => {
      const opened = await step(user, session.id, 'GC');
      expect(opened.status).toBe(200);
      expect(opened.body.data).toMatchObject({ status: 'GC', accounts: 0 });
      return opened.body.data;
    });
    expect(await status()).toBe('GC');

    await advance(user, 'PT5M');
    await onWorldClock(user, async () => {
      const picking = (await step(user, session.id, 'SA')).body.data;
      expect(picking.status).toBe('SA');
      return picking;
    });
    // Opening the page again does not move it back.
    expect((await step(user, session.id, 'GC')).body.data.status).toBe('SA');
    expect(await status()).toBe('SA');

    const approved = await decide(user, session.id, { approve: true, accountIds: [accountId] });
    expect(approved.status).toBe(200);
    expect(approved.body.data.status).toBe('LN');
    // A decided requisition stays decided.
    expect((await step(user, session.id, 'SA')).body.data.status).toBe('LN');
    expect(await status()).toBe('LN');
  });

  it('refuses from GC; steps are 404 for another user and 400 for unknown steps, changing nothing', async () => {
    const user = await app.createUser();
    const mallory = await app.createUser();
    await openAccount(app, user);
    const nordigen = await client(user);
    const session = await nordigen.initSession({ redirectUrl: 'https://app.example/cb', institutionId: BANK, referenceId: 'b' });
    expect((await step(mallory, session.id, 'GC')).status).toBe(404);
    expect((await step(user, session.id, 'LN')).status).toBe(400);
    expect((await step(user, session.id, 'CR')).status).toBe(400);
    expect((await nordigen.requisition.getRequisitionById(session.id)).status).toBe('CR');
    await step(user, session.id, 'GC');
    expect((await decide(user, session.id, { approve: false })).body.data.status).toBe('RJ');
    expect((await step(user, session.id, 'SA')).body.data.status).toBe('RJ');
    expect((await nordigen.requisition.getRequisitionById(session.id)).status).toBe('RJ');
  });

  it('lists the world’s requisitions newest first, with EX once the agreement runs out', async () => {
    const user = await app.createUser();
    await openAccount(app, user);
    const nordigen = await client(user);
    const linked = await nordigen.initSession({
      redirectUrl: 'https://app.example/cb',
      institutionId: SANDBOX,
      referenceId: 'sandbox',
      accessValidForDays: 2,
    });
    await advance(user, 'PT1M');
    const waiting = await nordigen.initSession({ redirectUrl: 'https://app.example/cb', institutionId: BANK, referenceId: 'w' });
    const list = async () =>
      (await app.call('GET', '/v1/gocardless/requisitions?limit=1&page=1', { token: user.accessToken })).body;
    const first = await list();
    expect(first.meta).toMatchObject({ total: 2, hasMore: true });
    expect(first.data[0]).toMatchObject({ id: waiting.id, status: 'CR', reference: 'w', accounts: 0 });
    const all = await app.call('GET', '/v1/gocardless/requisitions', { token: user.accessToken });
    expect(all.body.data.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
      [waiting.id, 'CR'],
      [linked.id, 'LN'],
    ]);
    await advance(user, 'P2D');
    const later = await app.call('GET', '/v1/gocardless/requisitions', { token: user.accessToken });
    expect(later.body.data[1]).toMatchObject({ id: linked.id, status: 'EX', accounts: 1 });
    // Another user's world has none.
    const stranger = await app.createUser();
    expect((await app.call('GET', '/v1/gocardless/requisitions', { token: stranger.accessToken })).body.meta.total).toBe(0);
  });
});
