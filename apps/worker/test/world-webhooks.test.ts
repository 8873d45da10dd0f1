/**
 * A snapshot that keeps webhooks (`include: ['webhooks']`) gives each forked world its own copy of
 * them, with the real worker delivering: the child's event goes to the child's webhook, signed with
 * the child's NEW secret from the fork's answer (a Standard Webhooks `whsec_` one) — not the parent's — and the parent's webhook never
 * sees it; a child forked from a snapshot without the option has no webhook and delivers nothing.
 */
import { pause, waitUntil } from '@sandbank/testing';
import { verifySignature } from '@sandbank/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

const PARENT_SECRET = 'whsec-parent-0123456789abcdef';

let stack: DeliveryStack;
beforeAll(async () => {
  stack = await startDeliveryStack();
});
afterAll(() => stack.close());

it('a forked child delivers its own events to its copy of the webhook, signed with its own secret', async () => {
  const parent = await stack.createUser();
  const account = await stack.call('POST', '/v1/accounts', { token: parent.token, body: { name: 'Główne' } });
  expect(account.status).toBe(201);
  await stack.createWebhook(parent.token, `${stack.receiver.url}/shop`, PARENT_SECRET);
  const snapshot = async (name: string, include?: string[]) => {
    const res = await stack.call('POST', '/v1/sandbox/snapshots', { token: parent.token, body: { name, include } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };
  const withHooks = await snapshot('with webhooks', ['webhooks']);
  const without = await snapshot('without');
  expect(withHooks).toMatchObject({ webhooks: 1, apiKeys: 0 });
  expect(without).toMatchObject({ webhooks: 0, apiKeys: 0 });

  const fork = async (snapshotId: string) => {
    const res = await stack.call('POST', '/v1/worlds', { token: parent.token, body: { snapshotId } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };
  const child = await fork(withHooks.id);
  const bare = await fork(without.id);
  expect(child.webhooks).toHaveLength(1);
  const [hook] = child.webhooks;
  expect(hook).toMatchObject({ url: `${stack.receiver.url}/shop`, events: ['transaction.created'], status: 'active' });
  expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  expect(bare.webhooks).toEqual([]);
  // The child's copy is its own: listed with the child's token, not with the parent's.
  const listed = await stack.call('GET', '/v1/webhooks', { token: child.accessToken });
  expect(listed.body.data.map((webhook: { id: string }) => webhook.id)).toEqual([hook.id]);
  expect((await stack.call('GET', `/v1/webhooks/${hook.id}`, { token: parent.token })).status).toBe(404);

  // A booking in each child: only the one with the webhook delivers, signed with its secret.
  const book = async (token: string) => {
    const [first] = (await stack.call('GET', '/v1/accounts', { token })).body.data;
    const res = await stack.call('POST', '/v1/simulations/transaction', {
      token,
      body: { accountId: first.id, amount: 1_234, description: 'Zwrot' },
    });
    expect(res.status).toBe(201);
    return res.body.data.transaction.id as string;
  };
  await book(bare.accessToken);
  const transactionId = await book(child.accessToken);
  const [delivered] = await waitUntil(async () => {
    const mine = stack.receiver.received.filter((request) => request.path === '/shop');
    return mine.length > 0 ? mine : null;
  });
  if (!delivered) throw new Error('no delivery');
  expect(JSON.parse(delivered.rawBody).data.transaction.id).toBe(transactionId);
  expect(verifySignature(delivered.headers, delivered.rawBody, hook.secret)).toBe(true);
  // A Standard Webhooks secret: the standardwebhooks package reads it as it is.
  expect(new Webhook(hook.secret).verify(delivered.rawBody, delivered.headers as Record<string, string>)).toMatchObject({
    data: { transaction: { id: transactionId } },
  });
  expect(verifySignature(delivered.headers, delivered.rawBody, PARENT_SECRET)).toBe(false);
  // The receiver has the request before the worker records the attempt: wait for the record.
  const delivery = await waitUntil(async () => {
    const [first] = await stack.deliveries(hook.id);
    return first?.status === 'succeeded' ? first : null;
  });
  expect(delivery).toMatchObject({ status: 'succeeded' });

  // Nothing else arrives: the bare child has no webhook, the parent booked nothing.
  await pause(500, 'nothing else may arrive: time for a wrong delivery to show');
  expect(stack.receiver.received.filter((request) => request.path === '/shop')).toHaveLength(1);
  const { rows } = await stack.db.query('select count(*)::int as n from webhooks where user_id = $1', [bare.world.id]);
  expect(rows[0].n).toBe(0);
});
