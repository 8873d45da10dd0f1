/**
 * Push and poll agree byte for byte: the raw body a real webhook receiver gets equals the JSON
 * the event log serves for that id (GET /v1/events/:id's `data`, and the item of GET /v1/events).
 */

import { waitUntil } from '@sandbank/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

let stack: DeliveryStack;
beforeAll(async () => {
  stack = await startDeliveryStack();
});
afterAll(() => stack.close());

async function rawGet(path: string, token: string): Promise<string> {
  const response = await fetch(stack.url + path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return response.text();
}

it('every event kind arrives at the receiver with exactly the bytes the event log serves', async () => {
  const owner = await stack.createUser();
  const hook = await stack.call('POST', '/v1/webhooks', {
    token: owner.token,
    body: {
      url: `${stack.receiver.url}/bytes`,
      secret: 'whsec-bytes-0123456789abcdef',
      events: ['transaction.created', 'transaction.updated', 'transaction.removed'],
      clientId: 'bytes',
    },
  });
  expect(hook.status).toBe(201);
  const accountId = (await stack.call('POST', '/v1/accounts', { token: owner.token, body: { name: 'Bytes' } })).body.data.id;
  const simulate = (body: Record<string, unknown>) =>
    stack.call('POST', '/v1/simulations/transaction', { token: owner.token, body: { accountId, ...body } });
  expect((await simulate({ amount: 10_000, description: 'Zażółć gęślą jaźń — "quotes" \\ and emoji 🏦' })).status).toBe(201);
  const card = (await simulate({ amount: -2_500, status: 'pending', merchant: 'Żabka', category: 'groceries' })).body.data;
  const voided = (await simulate({ amount: -100, status: 'pending' })).body.data;
  const act = (id: string, verb: string, body: Record<string, unknown> = {}) =>
    stack.call('POST', `/v1/transactions/${id}/${verb}`, { token: owner.token, body });
  expect((await act(card.transaction.id, 'post', { amount: -2_800 })).status).toBe(200);
  expect((await act(voided.transaction.id, 'void')).status).toBe(200);

  const { rows } = await stack.db.query<{ id: string }>('select id from events where user_id = $1', [owner.id]);
  expect(rows).toHaveLength(5);
  const received = await waitUntil(async () => {
    const mine = stack.receiver.received.filter((request) => request.path === '/bytes');
    return mine.length === rows.length ? mine : null;
  });

  // The log serves an event once every older transaction of the cluster has ended (its gap-free
  // horizon): under parallel test files that can be a moment after the delivery arrived.
  const log = await waitUntil(async () => {
    const page = JSON.parse(await rawGet('/v1/events?limit=200', owner.token)) as { data: { id: string }[] };
    return page.data.length === rows.length ? page : null;
  });
  const kinds = new Set<string>();
  for (const request of received) {
    const id = JSON.parse(request.rawBody).id as string;
    kinds.add(JSON.parse(request.rawBody).type);
    // The single-event endpoint wraps the body in { data }: compare the raw bytes around it.
    expect(await rawGet(`/v1/events/${id}`, owner.token)).toBe(`{"data":${request.rawBody}}`);
    expect(JSON.stringify(log.data.find((event) => event.id === id))).toBe(request.rawBody);
  }
  expect([...kinds].sort()).toEqual(['transaction.created', 'transaction.removed', 'transaction.updated']);
});
