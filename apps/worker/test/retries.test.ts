import { waitUntil } from '@sandbank/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

// The stack shrinks the schedule to 1 s, 2 s (3 tries in all) and the timeout to 1 s.
let stack: DeliveryStack;
beforeAll(async () => {
  stack = await startDeliveryStack();
});
afterAll(() => stack.close());

const SECRET = 'whsec-retries-0123456789abcdef';
const requestsTo = (path: string) => stack.receiver.received.filter((request) => request.path === path);

async function setUp(path: string) {
  const owner = await stack.createUser();
  const webhook = await stack.createWebhook(owner.token, `${stack.receiver.url}${path}`, SECRET);
  return { owner, webhook };
}

async function settledDelivery(webhookId: string, status: string, timeoutMs = 20_000) {
  return waitUntil(
    async () => {
      const [delivery] = await stack.deliveries(webhookId);
      return delivery?.status === status ? delivery : null;
    },
    { timeoutMs },
  );
}

describe('retries', () => {
  it('retries after 500s on the schedule with the same idempotency key, then succeeds', async () => {
    const path = '/flaky';
    const { owner, webhook } = await setUp(path);
    let calls = 0;
    const previous = stack.receiver.respond;
    stack.receiver.respond = (request, index) => (request.path === path ? (++calls <= 2 ? 500 : 200) : previous(request, index));
    const { eventId } = await stack.commitEvent(owner.id);

    const delivery = await settledDelivery(webhook.id, 'succeeded');
    const requests = requestsTo(path);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['x-sandbank-idempotency-key']))).toEqual(new Set([eventId]));
    expect(new Set(requests.map((r) => r.rawBody)).size).toBe(1);
    // The gaps follow the schedule (at least 1 s, then at least 2 s).
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(950);
    expect(requests[2]!.receivedAt - requests[1]!.receivedAt).toBeGreaterThanOrEqual(1950);

    expect(delivery).toMatchObject({ attempt_count: 3, last_status_code: 200, next_attempt_at: null });
    const attempts = await stack.attempts(delivery.id);
    expect(attempts.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 500, 'HTTP 500'],
      [3, 200, null],
    ]);
    expect(attempts[0].next_attempt_at.getTime() - attempts[0].started_at.getTime()).toBeGreaterThanOrEqual(1000);
    expect(attempts[1].next_attempt_at.getTime() - attempts[1].started_at.getTime()).toBeGreaterThanOrEqual(2000);
    expect(attempts[2].next_attempt_at).toBeNull();
  });

  it('counts a timeout as a failure and marks the delivery failed after the last try', async () => {
    const path = '/silent';
    const { owner, webhook } = await setUp(path);
    const previous = stack.receiver.respond;
    stack.receiver.respond = (request, index) => (request.path === path ? 'hang' : previous(request, index));
    const { eventId } = await stack.commitEvent(owner.id);

    const delivery = await settledDelivery(webhook.id, 'failed');
    expect(delivery).toMatchObject({ attempt_count: 3, last_status_code: null, next_attempt_at: null });
    expect(delivery.completed_at).toBeInstanceOf(Date);
    const attempts = await stack.attempts(delivery.id);
    expect(attempts.map((a) => a.error)).toEqual(Array(3).fill('timeout after 1000 ms'));
    expect(attempts.map((a) => a.next_attempt_at === null)).toEqual([false, false, true]);
    const requests = requestsTo(path);
    expect(requests).toHaveLength(3);
    expect(requests.every((r) => r.headers['x-sandbank-idempotency-key'] === eventId)).toBe(true);
    const hook = await stack.call('GET', '/v1/webhooks', { token: owner.token });
    expect(hook.body.data[0].status).toBe('active');
  });

  it('disables the webhook on 410 Gone and stops delivering to it', async () => {
    const path = '/gone';
    const { owner, webhook } = await setUp(path);
    const previous = stack.receiver.respond;
    stack.receiver.respond = (request, index) => (request.path === path ? 410 : previous(request, index));
    await stack.commitEvent(owner.id);

    const delivery = await settledDelivery(webhook.id, 'failed');
    expect(delivery).toMatchObject({ attempt_count: 1, last_status_code: 410 });
    const list = await stack.call('GET', '/v1/webhooks', { token: owner.token });
    expect(list.body.data[0]).toMatchObject({
      id: webhook.id,
      status: 'disabled',
      disabledReason: expect.stringContaining('410'),
    });

    const { eventId } = await stack.commitEvent(owner.id);
    await waitUntil(async () => {
      const { rows } = await stack.db.query('select relayed_at from events where id = $1', [eventId]);
      return rows[0].relayed_at !== null;
    });
    expect(await stack.deliveries(webhook.id)).toHaveLength(1);
    expect(requestsTo(path)).toHaveLength(1);
  });

  it('redelivers a delivered event with the same idempotency key and body', async () => {
    const path = '/redeliver';
    const { owner, webhook } = await setUp(path);
    const { eventId } = await stack.commitEvent(owner.id);
    const delivery = await settledDelivery(webhook.id, 'succeeded');

    const res = await stack.call('POST', `/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/redeliver`, {
      token: owner.token,
      body: {},
    });
    expect(res.status).toBe(202);
    await waitUntil(async () => requestsTo(path).length === 2);
    const [original, again] = requestsTo(path);
    expect(again!.headers['x-sandbank-idempotency-key']).toBe(eventId);
    expect(again!.rawBody).toBe(original!.rawBody);
    const after = await waitUntil(async () => {
      const [row] = await stack.deliveries(webhook.id);
      return row.status === 'succeeded' && row.attempt_count === 2 ? row : null;
    });
    expect((await stack.attempts(after.id)).map((a) => a.attempt)).toEqual([1, 2]);
  });

  it('closes pending deliveries of a deleted webhook without sending them', async () => {
    const path = '/deleted';
    const { owner, webhook } = await setUp(path);
    const previous = stack.receiver.respond;
    stack.receiver.respond = (request, index) => (request.path === path ? 500 : previous(request, index));
    await stack.commitEvent(owner.id);
    await waitUntil(async () => requestsTo(path).length === 1);
    expect((await stack.call('DELETE', `/v1/webhooks/${webhook.id}`, { token: owner.token })).status).toBe(200);
    const delivery = await settledDelivery(webhook.id, 'failed');
    expect(delivery.attempt_count).toBe(1);
    expect(requestsTo(path)).toHaveLength(1);
  });
});

describe('URL safety at delivery', () => {
  it('refuses to connect to a private address when private URLs are not allowed, on literals and on resolved names', async () => {
    // Registered while allowed (e.g. the policy changed, or the name now resolves elsewhere).
    const owner = await stack.createUser();
    const literal = await stack.createWebhook(owner.token, `${stack.receiver.url}/literal`, SECRET);
    const named = await stack.createWebhook(owner.token, `${stack.receiver.url.replace('127.0.0.1', 'localhost')}/named`, SECRET);
    const strict = await stack.worker({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false', WEBHOOK_RETRY_SCHEDULE_SECONDS: '0' });
    await Promise.all(
      stack
        .workers()
        .filter((w) => w !== strict)
        .map((w) => w.stop()),
    );
    await stack.commitEvent(owner.id);

    for (const webhook of [literal, named]) {
      const delivery = await settledDelivery(webhook.id, 'failed');
      const attempts = await stack.attempts(delivery.id);
      expect(attempts.length).toBe(2);
      expect(attempts.every((a) => a.status_code === null && /non-public address/.test(a.error))).toBe(true);
    }
    expect(requestsTo('/literal')).toEqual([]);
    expect(requestsTo('/named')).toEqual([]);
  });
});
