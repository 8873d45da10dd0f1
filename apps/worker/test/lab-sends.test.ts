/**
 * `POST /v1/webhooks/:id/test` and `POST /v1/events/replay` (docs/guides/webhooks.md), observed by a real
 * receiver verifying with `standardwebhooks`: the test event reaches that webhook only and stays
 * out of the event log; a replay redelivers the same event ids as new attempts, bounded and by cursor.
 */

import { pause, waitUntil } from '@sandbank/testing';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

let stack: DeliveryStack;
beforeAll(async () => {
  stack = await startDeliveryStack();
});
afterAll(() => stack.close());

const SECRET = 'whsec-lab-sends-0123456789abcdef';
const standard = new StandardWebhook(SECRET, { format: 'raw' });
const requestsTo = (path: string) => stack.receiver.received.filter((request) => request.path === path);
const verified = (path: string) =>
  requestsTo(path).map(
    (request) => standard.verify(request.rawBody, request.headers as Record<string, string>) as { id: string; type: string },
  );

describe('POST /v1/webhooks/:id/test', () => {
  it('sends a signed webhook.test to that webhook only, outside the event log', async () => {
    const owner = await stack.createUser();
    const webhook = await stack.createWebhook(owner.token, `${stack.receiver.url}/test-one`, SECRET);
    await stack.createWebhook(owner.token, `${stack.receiver.url}/test-other`, SECRET);
    const res = await stack.call('POST', `/v1/webhooks/${webhook.id}/test`, { token: owner.token, body: {} });
    expect(res.status).toBe(202);
    await waitUntil(async () => requestsTo('/test-one').length === 1);
    const [event] = verified('/test-one');
    expect(event).toMatchObject({ id: res.body.data.eventId, type: 'webhook.test', data: {} });
    const log = await stack.call('GET', '/v1/events', { token: owner.token });
    expect(log.body.data).toEqual([]);
    const one = await stack.call('GET', `/v1/events/${res.body.data.eventId}`, { token: owner.token });
    expect(one.status).toBe(404);
    // The relay gives it to no other webhook.
    await pause(200, 'a wrong delivery to another webhook would arrive in this time');
    expect(requestsTo('/test-other')).toHaveLength(0);
    const deliveries = await stack.call('GET', `/v1/webhooks/${webhook.id}/deliveries`, { token: owner.token });
    expect(deliveries.body.data[0]).toMatchObject({ eventId: res.body.data.eventId, eventType: 'webhook.test' });

    const stranger = await stack.createUser();
    const foreign = await stack.call('POST', `/v1/webhooks/${webhook.id}/test`, { token: stranger.token, body: {} });
    expect(foreign.status).toBe(404);
    await stack.call('PATCH', `/v1/webhooks/${webhook.id}`, { token: owner.token, body: { status: 'disabled' } });
    const disabled = await stack.call('POST', `/v1/webhooks/${webhook.id}/test`, { token: owner.token, body: {} });
    expect(disabled.status).toBe(409);
  });
});

describe('POST /v1/events/replay', () => {
  it('redelivers the same event ids as new attempts, within the cursors and the limit', async () => {
    const path = '/replay';
    const owner = await stack.createUser();
    const webhook = await stack.createWebhook(owner.token, `${stack.receiver.url}${path}`, SECRET);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await stack.commitEvent(owner.id)).eventId);
    await waitUntil(async () => requestsTo(path).length === 3);
    // Cursors of the log: after the first event, after the second.
    const first = await stack.call('GET', '/v1/events?limit=1', { token: owner.token });
    const second = await stack.call(`GET`, `/v1/events?limit=1&after=${first.body.meta.nextCursor}`, { token: owner.token });
    expect([first.body.data[0].id, second.body.data[0].id]).toEqual(ids.slice(0, 2));

    const all = await stack.call('POST', '/v1/events/replay', { token: owner.token, body: { webhookId: webhook.id } });
    expect(all.status).toBe(202);
    expect(all.body.data).toMatchObject({ webhookId: webhook.id, queued: 3, eventIds: ids, hasMore: false });
    await waitUntil(async () => requestsTo(path).length === 6);
    const again = verified(path).slice(3);
    expect(new Set(again.map((event) => event.id))).toEqual(new Set(ids));
    expect(
      requestsTo(path)
        .slice(3)
        .map((r) => r.rawBody)
        .sort(),
    ).toEqual(
      requestsTo(path)
        .slice(0, 3)
        .map((r) => r.rawBody)
        .sort(),
    );
    await waitUntil(async () => {
      const rows = await stack.deliveries(webhook.id);
      return rows.length === 3 && rows.every((row) => row.status === 'succeeded' && row.attempt_count === 2);
    });

    // The window between two cursors: only the second event.
    const window = await stack.call('POST', '/v1/events/replay', {
      token: owner.token,
      body: { webhookId: webhook.id, after: first.body.meta.nextCursor, until: second.body.meta.nextCursor },
    });
    expect(window.body.data).toMatchObject({ queued: 1, eventIds: [ids[1]], hasMore: false });
    await waitUntil(async () => requestsTo(path).length === 7);
    expect(requestsTo(path)[6]!.headers['webhook-id']).toBe(ids[1]);

    // Bounded: one per call, continued from nextCursor.
    const page = await stack.call('POST', '/v1/events/replay', { token: owner.token, body: { webhookId: webhook.id, limit: 1 } });
    expect(page.body.data).toMatchObject({ queued: 1, eventIds: [ids[0]], hasMore: true });
    const next = await stack.call('POST', '/v1/events/replay', {
      token: owner.token,
      body: { webhookId: webhook.id, limit: 2, after: page.body.data.nextCursor },
    });
    expect(next.body.data).toMatchObject({ queued: 2, eventIds: ids.slice(1), hasMore: false });
    await waitUntil(async () => requestsTo(path).length === 10);

    for (const body of [
      { webhookId: webhook.id, limit: 5000 },
      { webhookId: webhook.id, after: 'not-a-cursor' },
      { webhookId: webhook.id, types: ['nope'] },
    ]) {
      const bad = await stack.call('POST', '/v1/events/replay', { token: owner.token, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    const stranger = await stack.createUser();
    const foreign = await stack.call('POST', '/v1/events/replay', { token: stranger.token, body: { webhookId: webhook.id } });
    expect(foreign.status).toBe(404);
  });
});
