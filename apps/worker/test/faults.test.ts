/**
 * The webhook lab's faults (docs/guides/webhooks.md), each observed by a real receiver verifying with the
 * `standardwebhooks` library: duplicates carry the same webhook-id, reordered events all arrive
 * but out of order, a stale timestamp fails verification, a failure rate makes retries that the
 * delivery log records with their fault. Faults repeat for a seed.
 */

import { waitUntil } from '@sandbank/testing';
import { planFaults } from '@sandbank/webhooks';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

let stack: DeliveryStack;
beforeAll(async () => {
  stack = await startDeliveryStack();
});
afterAll(() => stack.close());

const SECRET = 'whsec-faults-0123456789abcdef';
const standard = new StandardWebhook(SECRET, { format: 'raw' });
const requestsTo = (path: string) => stack.receiver.received.filter((request) => request.path === path);
const verifies = (request: { rawBody: string; headers: Record<string, unknown> }) => {
  try {
    standard.verify(request.rawBody, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

async function withFaults(path: string, faults: unknown) {
  const owner = await stack.createUser();
  const webhook = await stack.createWebhook(owner.token, `${stack.receiver.url}${path}`, SECRET);
  const res = await stack.call('PATCH', `/v1/webhooks/${webhook.id}`, { token: owner.token, body: { faults } });
  expect(res.status).toBe(200);
  return { owner, webhook, faults: res.body.data.faults };
}

async function attemptsOf(webhookId: string) {
  const { rows } = await stack.db.query(
    `select d.event_id, a.attempt, a.status_code, a.error, a.faults
       from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id
      where d.webhook_id = $1 order by a.started_at, a.attempt`,
    [webhookId],
  );
  return rows;
}

describe('webhook faults', () => {
  it('is off by default, bounded, and turned off with null', async () => {
    const owner = await stack.createUser();
    const webhook = await stack.createWebhook(owner.token, `${stack.receiver.url}/bounds`, SECRET);
    const got = await stack.call('GET', `/v1/webhooks/${webhook.id}`, { token: owner.token });
    expect(got.body.data.faults).toBeNull();
    for (const faults of [
      { failure: { rate: 1.5 } },
      { latency: { ms: 60_000 } },
      { reorder: { windowMs: 0 } },
      { staleTimestamp: { rate: 1, ageSeconds: 10 } },
      { failure: { rate: 1, status: 410 } },
      { duplicate: { rate: 1 }, extra: true },
    ]) {
      const res = await stack.call('PATCH', `/v1/webhooks/${webhook.id}`, { token: owner.token, body: { faults } });
      expect(res.status, JSON.stringify(faults)).toBe(400);
    }
    const set = await stack.call('PATCH', `/v1/webhooks/${webhook.id}`, {
      token: owner.token,
      body: { faults: { duplicate: { rate: 0.5 } } },
    });
    expect(set.body.data.faults).toMatchObject({ duplicate: { rate: 0.5 }, seed: expect.any(String) });
    const off = await stack.call('PATCH', `/v1/webhooks/${webhook.id}`, { token: owner.token, body: { faults: null } });
    expect(off.body.data.faults).toBeNull();
  });

  it('duplicates carry the same webhook-id and body, and the attempt records the fault', async () => {
    const path = '/duplicates';
    const { owner, webhook } = await withFaults(path, { seed: 'dup', duplicate: { rate: 1 } });
    const { eventId } = await stack.commitEvent(owner.id);
    await waitUntil(async () => requestsTo(path).length >= 2);
    const [first, second] = requestsTo(path);
    expect(first!.headers['webhook-id']).toBe(eventId);
    expect(second!.headers['webhook-id']).toBe(eventId);
    expect(second!.rawBody).toBe(first!.rawBody);
    expect(verifies(first!) && verifies(second!)).toBe(true);
    const attempts = await waitUntil(async () => {
      const rows = await attemptsOf(webhook.id);
      return rows.length === 1 ? rows : null;
    });
    expect(attempts[0].faults).toEqual([{ kind: 'duplicate' }]);
  });

  it('reordered events all arrive, out of order, each attempt recording its hold', async () => {
    const path = '/reorder';
    const seed = 'reorder-seed';
    const { owner, webhook } = await withFaults(path, { seed, reorder: { windowMs: 2000 } });
    // The plan the seed gives: arrival follows the holds, not the commits.
    const hold = (id: string) =>
      planFaults({ seed, reorder: { rate: 1, windowMs: 2000 } }, { eventId: id, cycle: 1, attempt: 1 }).holdMs!;
    // Event ids are random, so the plan's order is too: commit (at least six) until a later event is
    // held 500 ms less than an earlier one, an inversion the arrivals must show whatever the timing.
    const committed: string[] = [];
    const inverted = () => committed.some((a, i) => committed.slice(i + 1).some((b) => hold(a) - hold(b) >= 500));
    while (committed.length < 6 || (!inverted() && committed.length < 20)) {
      committed.push((await stack.commitEvent(owner.id)).eventId);
    }
    expect(inverted()).toBe(true);
    await waitUntil(async () => requestsTo(path).length >= committed.length);
    const arrived = requestsTo(path).map((request) => request.headers['webhook-id'] as string);
    expect(new Set(arrived)).toEqual(new Set(committed));
    expect(arrived).toHaveLength(committed.length);
    const holds = new Map(committed.map((id) => [id, hold(id)]));
    expect(arrived).not.toEqual(committed);
    expect(requestsTo(path).every(verifies)).toBe(true);
    const attempts = await waitUntil(async () => {
      const rows = await attemptsOf(webhook.id);
      return rows.length === committed.length ? rows : null;
    });
    for (const attempt of attempts) expect(attempt.faults).toEqual([{ kind: 'reorder', ms: holds.get(attempt.event_id) }]);
  });

  it('a stale timestamp is correctly signed and still fails standardwebhooks verification', async () => {
    const path = '/stale';
    const { owner, webhook } = await withFaults(path, { seed: 'stale', staleTimestamp: { rate: 1, ageSeconds: 3600 } });
    await stack.commitEvent(owner.id);
    const [request] = await waitUntil(async () => (requestsTo(path).length ? requestsTo(path) : null));
    const age = Date.now() / 1000 - Number(request!.headers['webhook-timestamp']);
    expect(age).toBeGreaterThan(3590);
    expect(() => standard.verify(request!.rawBody, request!.headers as Record<string, string>)).toThrow(/timestamp/i);
    const attempts = await waitUntil(async () => ((await attemptsOf(webhook.id)).length ? attemptsOf(webhook.id) : null));
    expect(attempts[0].faults).toEqual([{ kind: 'staleTimestamp', ageSeconds: 3600 }]);
  });

  it('a failure rate makes retries, recorded with the fault, the same on every run for a seed', async () => {
    const path = '/failing';
    const seed = 'failing-seed';
    const faults = { seed, failure: { rate: 0.5, status: 503 }, latency: { rate: 0.5, ms: 50 } };
    const { owner, webhook } = await withFaults(path, faults);
    const events: string[] = [];
    for (let i = 0; i < 4; i++) events.push((await stack.commitEvent(owner.id)).eventId);
    // Every delivery ends (3 tries each at most with the stack's 1 s, 2 s schedule).
    await waitUntil(
      async () => {
        const rows = await stack.deliveries(webhook.id);
        return rows.length === events.length && rows.every((row) => row.status !== 'pending');
      },
      { timeoutMs: 30_000 },
    );
    const attempts = await attemptsOf(webhook.id);
    // What the seed planned is what happened, attempt by attempt.
    const parsed = { seed, failure: { rate: 0.5, status: 503 as const }, latency: { rate: 0.5, ms: 50 } };
    for (const attempt of attempts) {
      const plan = planFaults(parsed, { eventId: attempt.event_id, cycle: 1, attempt: attemptNumberInCycle(attempts, attempt) });
      expect(attempt.faults.some((fault: { kind: string }) => fault.kind === 'failure')).toBe(plan.failure !== undefined);
      expect(attempt.faults.some((fault: { kind: string }) => fault.kind === 'latency')).toBe(plan.latencyMs !== undefined);
      if (plan.failure !== undefined) {
        expect(attempt.status_code).toBe(503);
        expect(attempt.error).toBe('fault: HTTP 503 (the receiver answered HTTP 200)');
      } else expect(attempt.status_code).toBe(200);
    }
    // Every request reached the receiver and verifies.
    expect(requestsTo(path)).toHaveLength(attempts.length);
    expect(requestsTo(path).every(verifies)).toBe(true);
  }, 40_000);
});

describe('webhook faults: failures', () => {
  it('a failure rate of 1 with a timeout fails every try of the schedule, each recorded with the fault', async () => {
    const path = '/always-failing';
    const { owner, webhook } = await withFaults(path, { failure: { rate: 1, status: 'timeout' } });
    const { eventId } = await stack.commitEvent(owner.id);
    const [delivery] = await waitUntil(
      async () => {
        const rows = await stack.deliveries(webhook.id);
        return rows[0]?.status === 'failed' ? rows : null;
      },
      { timeoutMs: 20_000 },
    );
    expect(delivery).toMatchObject({ attempt_count: 3, event_id: eventId });
    const attempts = await attemptsOf(webhook.id);
    expect(attempts.map((a) => [a.attempt, a.status_code, a.error, a.faults])).toEqual(
      [1, 2, 3].map((n) => [
        n,
        null,
        'fault: timeout (the receiver answered HTTP 200)',
        [{ kind: 'failure', status: 'timeout' }],
      ]),
    );
    // The receiver got every retry, same webhook-id, all verifying.
    expect(requestsTo(path).map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId, eventId]);
    expect(requestsTo(path).every(verifies)).toBe(true);
    const listed = await stack.call('GET', `/v1/webhooks/${webhook.id}/deliveries`, { token: owner.token });
    expect(listed.body.data[0].attempts[0].faults).toEqual([{ kind: 'failure', status: 'timeout' }]);
  }, 30_000);
});

/** The attempt's number within its delivery's cycle (one cycle here): its rank among the event's attempts. */
function attemptNumberInCycle(all: { event_id: string; attempt: number }[], one: { event_id: string; attempt: number }) {
  return all.filter((row) => row.event_id === one.event_id && row.attempt <= one.attempt).length;
}
