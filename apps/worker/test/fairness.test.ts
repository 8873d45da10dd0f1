/**
 * Fairness between users: one user's dead receivers must not hold every delivery slot. A user
 * with 12 webhooks on a receiver that never answers (each attempt waits the whole 10 s timeout)
 * and 2 bookings, then another user's booking: its first attempt arrives within 2 s.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '@sandbank/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

let stack: DeliveryStack;
beforeAll(async () => {
  // The production timeout, so a dead receiver holds its slot as long as it would in production.
  stack = await startDeliveryStack({ WEBHOOK_TIMEOUT_MS: '10000', WORKER_CONCURRENCY: '4', WORKER_USER_CONCURRENCY: '2' });
});
afterAll(() => stack.close());

const SECRET = 'whsec-fairness-0123456789abcdef';
const inFlight = () => stack.receiver.received.filter((request) => request.path.startsWith('/dead/')).length;

describe('fairness between users', () => {
  it("delivers a user's burst in full, exactly once each, never more than its 2 slots at once", async () => {
    // A receiver that answers after 100 ms and counts the requests it holds at once.
    let open = 0;
    let most = 0;
    const seen: string[] = [];
    const slow = http.createServer((req, res) => {
      open += 1;
      most = Math.max(most, open);
      seen.push(`${req.url} ${req.headers['webhook-id']}`);
      req.resume();
      setTimeout(() => {
        open -= 1;
        res.writeHead(204).end();
      }, 100);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
      const user = await stack.createUser();
      const hooks: { id: string }[] = [];
      for (let i = 0; i < 3; i++) hooks.push(await stack.createWebhook(user.token, `${url}/burst/${i}`, SECRET));
      // Six events in one relay batch: 18 jobs and one notification wake every idle worker at once
      // (this test runs first, while all 4 are idle).
      for (let i = 0; i < 6; i++) await stack.commitEvent(user.id);
      const rows = await waitUntil(async () => {
        const all = (await Promise.all(hooks.map((hook) => stack.deliveries(hook.id)))).flat();
        return all.length === 18 && all.every((row) => row.status === 'succeeded') ? all : null;
      });
      expect(rows.every((row) => row.attempt_count === 1)).toBe(true);
      expect(seen).toHaveLength(18);
      expect(new Set(seen).size).toBe(18);
      expect(most).toBeLessThanOrEqual(2);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it("delivers another user's event within 2 s while one user's 12 receivers hang", async () => {
    stack.receiver.respond = (request) => (request.path.startsWith('/dead/') ? 'hang' : 200);
    const noisy = await stack.createUser();
    for (let i = 0; i < 12; i++) await stack.createWebhook(noisy.token, `${stack.receiver.url}/dead/${i}`, SECRET);
    await stack.commitEvent(noisy.id);
    await stack.commitEvent(noisy.id);
    // The noisy user's attempts are hanging before the other user books anything.
    await waitUntil(async () => inFlight() >= 2);

    const quiet = await stack.createUser();
    const webhook = await stack.createWebhook(quiet.token, `${stack.receiver.url}/quiet`, SECRET);
    const booked = Date.now();
    const { eventId } = await stack.commitEvent(quiet.id);
    const arrived = await waitUntil(
      async () => stack.receiver.received.find((request) => request.headers['webhook-id'] === eventId),
      { timeoutMs: 2_000 },
    );
    expect(arrived.receivedAt - booked).toBeLessThan(2_000);
    const [delivery] = await waitUntil(async () => {
      const rows = await stack.deliveries(webhook.id);
      return rows[0]?.status === 'succeeded' ? rows : null;
    });
    expect(delivery).toMatchObject({ attempt_count: 1, status: 'succeeded' });
    // The noisy user never held more than its share of the slots.
    expect(inFlight()).toBeLessThanOrEqual(2);
  });
});
