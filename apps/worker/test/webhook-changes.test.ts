/**
 * Webhooks, second build (issue 11), with the real worker and real receivers:
 * - a secret rotated with PATCH signs with both secrets during the overlap (the `standardwebhooks`
 *   library verifies with either), then with the new one only;
 * - a redelivery asked for while an attempt is in flight is neither pushed back nor lost;
 * - a job whose delivery already succeeded (its completion was lost) sends nothing again;
 * - GET and PATCH of url, events and status.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '@sandbank/testing';
import { deliveryJob, enqueueDeliveryJobsSql, verifySignature } from '@sandbank/webhooks';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

const SECRET_A = 'whsec-rotation-old-0123456789';
const SECRET_B = 'whsec-rotation-new-9876543210';

let stack: DeliveryStack;
beforeAll(async () => {
  stack = await startDeliveryStack();
});
afterAll(() => stack.close());

const patch = (token: string, id: string, body: Record<string, unknown>) =>
  stack.call('PATCH', `/v1/webhooks/${id}`, { token, body });
const jobsOf = async (deliveryId: string) =>
  (await stack.db.query('select id from graphile_worker._private_jobs where key = $1', [`delivery:${deliveryId}`])).rows;

describe('secret rotation', () => {
  it('signs with both secrets during the overlap, then with the new one only', async () => {
    const owner = await stack.createUser();
    const hook = await stack.createWebhook(owner.token, `${stack.receiver.url}/rotation`, SECRET_A);
    const rotated = await patch(owner.token, hook.id, { secret: SECRET_B });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.data.secretRotatedAt).toMatch(/Z$/);
    // The overlap's end, from the rotation and WEBHOOK_SECRET_OVERLAP_HOURS (24 by default).
    expect(Date.parse(rotated.body.data.secretOverlapEndsAt) - Date.parse(rotated.body.data.secretRotatedAt)).toBe(24 * 3600_000);
    expect(JSON.stringify(rotated.body)).not.toContain(SECRET_B);

    const during = await stack.commitEvent(owner.id);
    const [first] = await waitUntil(async () => {
      const mine = stack.receiver.received.filter((request) => request.path === '/rotation');
      return mine.length === 1 ? mine : null;
    });
    if (!first) throw new Error('no delivery');
    expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [SECRET_A, SECRET_B]) {
      expect(
        new StandardWebhook(secret, { format: 'raw' }).verify(first.rawBody, first.headers as Record<string, string>),
      ).toMatchObject({
        id: during.eventId,
      });
      expect(verifySignature(first.headers, first.rawBody, secret)).toBe(true);
    }

    // The overlap ends (moved back instead of waiting 24 hours): only the new secret signs.
    await stack.db.query(`update webhooks set secret_rotated_at = now() - interval '25 hours' where id = $1`, [hook.id]);
    await stack.commitEvent(owner.id);
    const second = (
      await waitUntil(async () => {
        const mine = stack.receiver.received.filter((request) => request.path === '/rotation');
        return mine.length === 2 ? mine : null;
      })
    )[1];
    if (!second) throw new Error('no second delivery');
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifySignature(second.headers, second.rawBody, SECRET_B)).toBe(true);
    expect(verifySignature(second.headers, second.rawBody, SECRET_A)).toBe(false);
    expect(() =>
      new StandardWebhook(SECRET_A, { format: 'raw' }).verify(second.rawBody, second.headers as Record<string, string>),
    ).toThrow();
  });
});

describe('GET and PATCH', () => {
  it('reads a webhook and changes its url, events and status; bad changes are 400 and change nothing', async () => {
    const owner = await stack.createUser();
    const stranger = await stack.createUser();
    const hook = await stack.createWebhook(owner.token, `${stack.receiver.url}/first`, SECRET_A);
    const read = await stack.call('GET', `/v1/webhooks/${hook.id}`, { token: owner.token });
    expect(read.body.data).toMatchObject({
      id: hook.id,
      url: `${stack.receiver.url}/first`,
      status: 'active',
      secretRotatedAt: null,
      secretOverlapEndsAt: null,
    });
    expect((await stack.call('GET', `/v1/webhooks/${hook.id}`, { token: stranger.token })).status).toBe(404);
    expect((await patch(stranger.token, hook.id, { status: 'disabled' })).status).toBe(404);

    const bad = await patch(owner.token, hook.id, { url: 'ftp://example.com/x', events: ['transaction.exploded'] });
    expect(bad.status).toBe(400);
    const changed = await patch(owner.token, hook.id, {
      url: `${stack.receiver.url}/second`,
      events: ['transaction.created', 'transaction.removed'],
      status: 'disabled',
    });
    expect(changed.body.data).toMatchObject({
      url: `${stack.receiver.url}/second`,
      events: ['transaction.created', 'transaction.removed'],
      status: 'disabled',
      disabledReason: 'Disabled by its owner',
    });
    const enabled = await patch(owner.token, hook.id, { status: 'active' });
    expect(enabled.body.data).toMatchObject({ status: 'active', disabledReason: null });
    await stack.commitEvent(owner.id);
    await waitUntil(async () => stack.receiver.received.some((request) => request.path === '/second'));
  });
});

/** A receiver that holds the first request until told, then answers it with `firstStatus`; later ones 200 at once. */
async function holdingReceiver(firstStatus: number) {
  const requests: string[] = [];
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const index = requests.push(String(req.headers['webhook-id'])) - 1;
      if (index === 0) void held.then(() => res.writeHead(firstStatus).end());
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    release: () => release(),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('redelivery and lost completions', () => {
  it('a redelivery asked for while an attempt is in flight is neither pushed back nor lost', async () => {
    const receiver = await holdingReceiver(500);
    try {
      const owner = await stack.createUser();
      const hook = await stack.createWebhook(owner.token, `${receiver.url}/held`, SECRET_A);
      await stack.commitEvent(owner.id);
      await waitUntil(async () => receiver.requests.length === 1);
      const [delivery] = await stack.deliveries(hook.id);
      // Asked while attempt 1 hangs: a new cycle, sent at once by its own job.
      const redelivered = await stack.call('POST', `/v1/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`, {
        token: owner.token,
        body: {},
      });
      expect(redelivered.status).toBe(202);
      await waitUntil(async () => (await stack.deliveries(hook.id))[0]?.status === 'succeeded');
      // Now the old attempt ends with a 500: recorded, but it moves nothing and schedules no retry.
      receiver.release();
      await waitUntil(async () => (await stack.deliveries(hook.id))[0]?.attempt_count === 2);
      expect((await stack.deliveries(hook.id))[0]).toMatchObject({ status: 'succeeded' });
      expect(await jobsOf(delivery.id)).toEqual([]);
      expect(receiver.requests).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('a job whose completion was lost after a success sends nothing again', async () => {
    const owner = await stack.createUser();
    const hook = await stack.createWebhook(owner.token, `${stack.receiver.url}/once`, SECRET_A);
    await stack.commitEvent(owner.id);
    await waitUntil(async () => (await stack.deliveries(hook.id))[0]?.status === 'succeeded');
    const [delivery] = await stack.deliveries(hook.id);
    const before = stack.receiver.received.filter((request) => request.path === '/once').length;
    // The same job again, as graphile-worker re-runs a job whose completion never reached the database.
    await stack.db.query(enqueueDeliveryJobsSql('$1'), [
      JSON.stringify([deliveryJob({ deliveryId: delivery.id, attempt: 1, cycle: 1, userId: owner.id })]),
    ]);
    await waitUntil(async () => (await jobsOf(delivery.id)).length === 0);
    expect(stack.receiver.received.filter((request) => request.path === '/once')).toHaveLength(before);
    expect((await stack.deliveries(hook.id))[0]).toMatchObject({ status: 'succeeded', attempt_count: 1 });
  });
});
