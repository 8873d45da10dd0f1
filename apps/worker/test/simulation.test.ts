/**
 * End to end through the real simulation endpoint: a simulated transaction reaches the owner's
 * webhooks as one signed delivery each, and a simulation that fails leaves no event behind.
 */

import { waitUntil } from '@sandbank/testing';
import { openAccount } from '@sandbank/testing/fixtures';
import { verifySignature } from '@sandbank/webhooks';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

let stack: DeliveryStack;
beforeAll(async () => {
  stack = await startDeliveryStack();
});
afterAll(() => stack.close());

const SECRET = 'whsec-simulation-0123456789abcdef';
const requestsTo = (prefix: string) => stack.receiver.received.filter((request) => request.path.startsWith(prefix));

async function eventCount(userId: string): Promise<number> {
  const { rows } = await stack.db.query('select count(*)::int as n from events where user_id = $1', [userId]);
  return rows[0].n;
}

describe('simulation → webhook', () => {
  it("delivers a simulated transaction to each of the owner's webhooks, signed, and to nobody else", async () => {
    const owner = await stack.createUser();
    const stranger = await stack.createUser();
    await stack.createWebhook(owner.token, `${stack.receiver.url}/sim/owner-1`, SECRET);
    await stack.createWebhook(owner.token, `${stack.receiver.url}/sim/owner-2`, SECRET);
    await stack.createWebhook(stranger.token, `${stack.receiver.url}/sim/stranger`, SECRET);
    const accountId = await openAccount(stack, { accessToken: owner.token });

    const res = await stack.call('POST', '/v1/simulations/transaction', {
      token: owner.token,
      body: { accountId, amount: 12_345, description: 'Salary' },
    });
    expect(res.status).toBe(201);
    const { transaction } = res.body.data;

    await waitUntil(async () => requestsTo('/sim/owner').length === 2);
    const { rows } = await stack.db.query('select id, created_at from events where user_id = $1', [owner.id]);
    expect(rows).toHaveLength(1);
    for (const request of requestsTo('/sim/owner')) {
      expect(JSON.parse(request.rawBody)).toEqual({
        id: rows[0].id,
        type: 'transaction.created',
        createdAt: rows[0].created_at.toISOString(),
        data: { transaction, balances: { balance: 12_345, availableBalance: 12_345 } },
      });
      expect(request.headers['x-sandbank-idempotency-key']).toBe(rows[0].id);
      expect(
        new StandardWebhook(SECRET, { format: 'raw' }).verify(request.rawBody, request.headers as Record<string, string>),
      ).toBeTruthy();
      expect(verifySignature(request.headers, request.rawBody, SECRET)).toBe(true);
    }
    // The stranger's event log is empty, so nothing can ever be sent to their webhook.
    expect(await eventCount(stranger.id)).toBe(0);
    expect(requestsTo('/sim/stranger')).toEqual([]);
  });

  it('writes no event for a simulation that fails, and one for each that commits (replays add none)', async () => {
    const owner = await stack.createUser();
    await stack.createWebhook(owner.token, `${stack.receiver.url}/atomic`, SECRET);
    const accountId = await openAccount(stack, { accessToken: owner.token });
    const simulate = (body: Record<string, unknown>) =>
      stack.call('POST', '/v1/simulations/transaction', { token: owner.token, body });

    expect((await simulate({ accountId, amount: -1 })).body.code).toBe('INSUFFICIENT_FUNDS');
    expect((await simulate({ accountId, amount: 0 })).status).toBe(400);
    expect((await simulate({ accountId, amount: 1.5 })).status).toBe(400);
    expect((await simulate({ accountId, amount: 100, date: '2999-01-01T00:00:00.000Z' })).status).toBe(400);
    expect(await eventCount(owner.id)).toBe(0);

    expect((await simulate({ accountId, amount: 100, externalTxnId: 'once' })).status).toBe(201);
    expect((await simulate({ accountId, amount: 100, externalTxnId: 'once' })).status).toBe(200);
    expect((await simulate({ accountId, amount: 999, externalTxnId: 'once' })).status).toBe(409);
    expect((await simulate({ accountId, amount: -101 })).body.code).toBe('INSUFFICIENT_FUNDS');
    expect(await eventCount(owner.id)).toBe(1);

    await waitUntil(async () => requestsTo('/atomic').length === 1);
    // Quiescent, observably: every event relayed and no delivery job left, so nothing more can come.
    await waitUntil(async () => {
      const { rows } = await stack.db.query(
        `select (select count(*) from events where relayed_at is null) + (select count(*) from graphile_worker.jobs) as n`,
      );
      return Number(rows[0].n) === 0;
    });
    expect(requestsTo('/atomic')).toHaveLength(1);
  });
});
