/**
 * GET /v1/events?transactionId: one transaction's timeline from the event log — its own events
 * (created, patched, posted, voided) and the creation of its reversals, in log order, the caller's only.
 */
import { waitUntil } from '@sandbank/testing';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { lifecycleCalls } from './lifecycle-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { funded, act, patch, pendingCard } = lifecycleCalls(() => app);

interface LoggedEvent {
  id: string;
  type: string;
  data: { transaction?: { id: string; reversalOf: string | null; status: string } };
}

type Page = { data: LoggedEvent[]; meta: { nextCursor: string; hasMore: boolean } };

/**
 * The timeline once at least `count` events are served: an event waits for every older database
 * transaction of the cluster to end (docs/concepts/events-and-sync.md), such as another test's open snapshot.
 */
async function timeline(user: TestUser, transactionId: string, count: number, extra = ''): Promise<Page> {
  return waitUntil(
    async () => {
      const res = await app.call('GET', `/v1/events?transactionId=${transactionId}${extra}`, { token: user.accessToken });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const page = res.body as Page;
      return page.data.length >= count ? page : undefined;
    },
    { what: `${count} events of ${transactionId}` },
  );
}

const steps = (events: LoggedEvent[]) =>
  events.map(
    (event) => `${event.type}:${event.data.transaction?.status}${event.data.transaction?.reversalOf ? ':reversal' : ''}`,
  );

describe('GET /v1/events?transactionId', () => {
  it('answers a transaction’s own events and its reversals’ creation, in log order, nothing else', async () => {
    const { user, accountId } = await funded();
    const card = await pendingCard(user, accountId, -30_00);
    await simulate(app, user, { accountId, amount: -1_00 }); // another transaction: not in the timeline
    expect((await patch(user, card.id, { description: 'Orlen 123' })).status).toBe(200);
    expect((await act(user, card.id, 'post')).status).toBe(200);
    const part = await act(user, card.id, 'reverse', { amount: 10_00 });
    const rest = await act(user, card.id, 'reverse');
    const body = await timeline(user, card.id, 5);
    expect(steps(body.data)).toEqual([
      'transaction.created:pending',
      'transaction.updated:pending',
      'transaction.updated:posted',
      'transaction.created:posted:reversal',
      'transaction.created:posted:reversal',
    ]);
    expect(body.data.slice(0, 3).every((event) => event.data.transaction?.id === card.id)).toBe(true);
    expect(body.data.slice(3).map((event) => event.data.transaction?.id)).toEqual([
      part.body.data.transaction.id,
      rest.body.data.transaction.id,
    ]);
    expect(body.meta.hasMore).toBe(false);
    // A reversal's own timeline is its creation; the types filter and paging still apply.
    expect(steps((await timeline(user, part.body.data.transaction.id, 1)).data)).toEqual(['transaction.created:posted:reversal']);
    expect(steps((await timeline(user, card.id, 2, '&types=transaction.updated')).data)).toEqual([
      'transaction.updated:pending',
      'transaction.updated:posted',
    ]);
    const first = await timeline(user, card.id, 2, '&limit=2');
    expect(first.meta.hasMore).toBe(true);
    const next = await timeline(user, card.id, 3, `&limit=10&after=${first.meta.nextCursor}`);
    expect([...first.data, ...next.data].map((event) => event.id)).toEqual(body.data.map((event) => event.id));
  });

  it('shows a void, keeps other worlds out, and refuses a malformed id', async () => {
    const { user, accountId } = await funded();
    const card = await pendingCard(user, accountId, -5_00);
    expect((await act(user, card.id, 'void')).status).toBe(200);
    expect(steps((await timeline(user, card.id, 2)).data)).toEqual(['transaction.created:pending', 'transaction.removed:voided']);
    const stranger = await app.createUser();
    await openAccount(app, stranger);
    expect((await timeline(stranger, card.id, 0)).data).toEqual([]);
    const bad = await app.call('GET', '/v1/events?transactionId=not-an-id', { token: user.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('transactionId');
  });
});
