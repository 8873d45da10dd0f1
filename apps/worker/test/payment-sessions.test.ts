/**
 * Payments' sessions fire as wall time passes, not only on advances (docs/concepts/payments.md#the-calendar):
 * the worker's due-items loop takes an Elixir payment into its session and settles it when the
 * world's clock reaches those instants by itself, and webhooks subscribed to `payment.*` receive
 * each status change, signed.
 */
import { waitUntil } from '@sandbank/testing';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

const SECRET = 'whsec-payments-0123456789abcdef';

let stack: DeliveryStack;
beforeAll(async () => {
  stack = await startDeliveryStack({ WORKER_DUE_POLL_MS: '200' });
});
afterAll(() => stack.close());

/** The first Tuesday from 8 June next year (a Polish business day; Warsaw is on CEST, UTC+2), at a Warsaw time, less `seconds`. */
const YEAR = new Date().getUTCFullYear() + 1;
const JUNE_8 = Date.UTC(YEAR, 5, 8);
const TUESDAY = JUNE_8 + ((2 - new Date(JUNE_8).getUTCDay() + 7) % 7) * 86_400_000;
const before = (time: string, seconds: number) => {
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  return new Date(TUESDAY + ((hour - 2) * 60 + minute) * 60_000 - seconds * 1000).toISOString();
};

it('the worker takes a payment into its session and settles it on wall time; webhooks get payment.*', async () => {
  const owner = await stack.createUser();
  const hook = await stack.call('POST', '/v1/webhooks', {
    token: owner.token,
    body: {
      url: `${stack.receiver.url}/payments`,
      secret: SECRET,
      events: ['payment.created', 'payment.updated'],
      clientId: 'pay',
    },
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  const accountId = (await stack.call('POST', '/v1/accounts', { token: owner.token, body: { name: 'Main' } })).body.data.id;
  expect(
    (await stack.call('POST', '/v1/simulations/transaction', { token: owner.token, body: { accountId, amount: 100_00 } })).status,
  ).toBe(201);
  const advance = (to: string) => stack.call('POST', '/v1/clock/advance', { token: owner.token, body: { to } });
  expect((await advance(before('08:00', 0))).status).toBe(200);
  const created = await stack.call('POST', '/v1/payments', {
    token: owner.token,
    body: { fromAccountId: accountId, to: { iban: 'PL61109010140000071219812874', name: 'Landlord' }, amount: 40_00 },
  });
  expect(created.body.data.status).toBe('ACTC');
  const status = async () =>
    (await stack.call('GET', `/v1/payments/${created.body.data.id}`, { token: owner.token })).body.data.status as string;
  // Two seconds before the 09:30 session: nothing yet; then wall time carries the clock into it.
  expect((await advance(before('09:30', 2))).body.data.fired.payments).toBe(0);
  expect(await status()).toBe('ACTC');
  await waitUntil(async () => ((await status()) === 'ACSP' ? true : null), { timeoutMs: 15_000 });
  expect((await advance(before('10:30', 2))).body.data.fired.payments).toBe(0);
  await waitUntil(async () => ((await status()) === 'ACSC' ? true : null), { timeoutMs: 15_000 });

  const received = await waitUntil(async () => {
    const mine = stack.receiver.received.filter((request) => request.path === '/payments');
    return mine.length === 3 ? mine : null;
  });
  const bodies = received.map((request) => JSON.parse(request.rawBody));
  expect(bodies.map((body) => [body.type, body.data.payment.status]).sort()).toEqual([
    ['payment.created', 'ACTC'],
    ['payment.updated', 'ACSC'],
    ['payment.updated', 'ACSP'],
  ]);
  for (const request of received) {
    expect(
      new StandardWebhook(SECRET, { format: 'raw' }).verify(request.rawBody, request.headers as Record<string, string>),
    ).toEqual(JSON.parse(request.rawBody));
  }
}, 60_000);
