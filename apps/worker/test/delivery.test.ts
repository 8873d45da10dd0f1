import { randomBytes } from 'node:crypto';
import { WebhookEventSchema } from '@sandbank/schemas';
import { waitUntil } from '@sandbank/testing';
import { verifySignature } from '@sandbank/webhooks';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

let stack: DeliveryStack;
beforeAll(async () => {
  stack = await startDeliveryStack();
});
afterAll(() => stack.close());

const SECRET_A = 'whsec-first-0123456789abcdef';
const SECRET_B = 'whsec-second-0123456789abcdef';

/** Maps our headers to the Standard Webhooks names, as a receiver using only X-Sandbank-* would. */
function standardHeaders(headers: Record<string, string | string[] | undefined>) {
  return {
    'webhook-id': String(headers['x-sandbank-idempotency-key']),
    'webhook-timestamp': String(headers['x-sandbank-timestamp']),
    'webhook-signature': String(headers['x-sandbank-signature']),
  };
}

describe('webhook delivery', () => {
  it("delivers one signed request per subscribed webhook of the owner and none to other users' webhooks", async () => {
    const owner = await stack.createUser();
    const stranger = await stack.createUser();
    const first = await stack.createWebhook(owner.token, `${stack.receiver.url}/owner/first`, SECRET_A);
    const second = await stack.createWebhook(owner.token, `${stack.receiver.url}/owner/second`, SECRET_B);
    const strangers = await stack.createWebhook(stranger.token, `${stack.receiver.url}/stranger`, SECRET_A);
    const before = stack.receiver.received.length;

    const { eventId, transaction, createdAt } = await stack.commitEvent(owner.id);
    await waitUntil(async () => {
      const rows = [...(await stack.deliveries(first.id)), ...(await stack.deliveries(second.id))];
      return rows.length === 2 && rows.every((row) => row.status === 'succeeded');
    });
    const requests = stack.receiver.received.slice(before);
    expect(requests.map((r) => r.path).sort()).toEqual(['/owner/first', '/owner/second']);
    expect(await stack.deliveries(strangers.id)).toEqual([]);

    for (const request of requests) {
      const secret = request.path.endsWith('first') ? SECRET_A : SECRET_B;
      const body = JSON.parse(request.rawBody);
      expect(body).toEqual({ id: eventId, type: 'transaction.created', createdAt, data: { transaction } });
      expect(WebhookEventSchema.parse(body)).toEqual(body);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^Sandbank-Webhooks\//);
      expect(request.headers['x-sandbank-idempotency-key']).toBe(eventId);
      expect(request.headers['webhook-id']).toBe(eventId);
      expect(request.headers['webhook-timestamp']).toBe(request.headers['x-sandbank-timestamp']);
      expect(request.headers['webhook-signature']).toBe(request.headers['x-sandbank-signature']);
      expect(Math.abs(Number(request.headers['x-sandbank-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      // An independent implementation verifies it, after mapping our headers, and so does ours.
      const standard = new StandardWebhook(secret, { format: 'raw' });
      expect(standard.verify(request.rawBody, standardHeaders(request.headers))).toEqual(body);
      expect(standard.verify(request.rawBody, request.headers as Record<string, string>)).toEqual(body);
      expect(verifySignature(request.headers, request.rawBody, secret)).toBe(true);
      expect(verifySignature(request.headers, request.rawBody, secret === SECRET_A ? SECRET_B : SECRET_A)).toBe(false);
    }

    // The receiver has the request before the worker records the attempt: wait for the record.
    const delivery = await waitUntil(async () => {
      const [row] = await stack.deliveries(first.id);
      return row?.status === 'succeeded' ? row : null;
    });
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 1, last_status_code: 200, event_id: eventId });
    const attempts = await stack.attempts(delivery.id);
    expect(attempts).toEqual([
      { attempt: 1, started_at: expect.any(Date), status_code: 200, error: null, next_attempt_at: null },
    ]);
    const { rows } = await stack.db.query('select relayed_at from events where id = $1', [eventId]);
    expect(rows[0].relayed_at).toBeInstanceOf(Date);
  });

  it('signs for a Standard Webhooks secret (whsec_ + base64) with its decoded key: new Webhook(secret) verifies as is', async () => {
    const owner = await stack.createUser();
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    await stack.createWebhook(owner.token, `${stack.receiver.url}/standard-secret`, secret);
    const { eventId } = await stack.commitEvent(owner.id);
    const [request] = await waitUntil(async () => {
      const mine = stack.receiver.received.filter((received) => received.path === '/standard-secret');
      return mine.length > 0 ? mine : null;
    });
    if (!request) throw new Error('no delivery');
    const headers = request.headers as Record<string, string>;
    expect(new StandardWebhook(secret).verify(request.rawBody, headers)).toMatchObject({ id: eventId });
    // Not the UTF-8 bytes of the whole string.
    expect(() => new StandardWebhook(secret, { format: 'raw' }).verify(request.rawBody, headers)).toThrow(
      'No matching signature found',
    );
    expect(verifySignature(request.headers, request.rawBody, secret)).toBe(true);
  });

  it('shows the delivery and its attempt through the API', async () => {
    const owner = await stack.createUser();
    const webhook = await stack.createWebhook(owner.token, `${stack.receiver.url}/api-view`, SECRET_A);
    const { eventId } = await stack.commitEvent(owner.id);
    const res = await waitUntil(async () => {
      const list = await stack.call('GET', `/v1/webhooks/${webhook.id}/deliveries`, { token: owner.token });
      return list.body.data[0]?.status === 'succeeded' ? list : null;
    });
    expect(res.body.data).toEqual([
      expect.objectContaining({
        eventId,
        eventType: 'transaction.created',
        status: 'succeeded',
        attemptCount: 1,
        lastStatusCode: 200,
        attempts: [expect.objectContaining({ attempt: 1, statusCode: 200, error: null, nextAttemptAt: null })],
      }),
    ]);
  });

  it('sends nothing for an event of a user without webhooks, and still marks it relayed', async () => {
    const user = await stack.createUser();
    const { eventId } = await stack.commitEvent(user.id);
    await waitUntil(async () => {
      const { rows } = await stack.db.query('select relayed_at from events where id = $1', [eventId]);
      return rows[0].relayed_at !== null;
    });
    const { rows } = await stack.db.query('select count(*)::int as n from webhook_deliveries where event_id = $1', [eventId]);
    expect(rows[0].n).toBe(0);
  });
});
