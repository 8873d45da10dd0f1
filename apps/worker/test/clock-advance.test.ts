/**
 * The events of a clock advance reach webhooks like any others (docs/concepts/clock-and-schedules.md): signed with wall-time
 * timestamps (what receivers check against their own clock), with bodies dated in the world's time.
 */

import { waitUntil } from '@sandbank/testing';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

const SECRET = 'whsec-advance-0123456789abcdef';
const DAY = 86_400_000;

let stack: DeliveryStack;
beforeAll(async () => {
  stack = await startDeliveryStack();
});
afterAll(() => stack.close());

it('delivers what an advance fired: valid signatures on wall time, bodies on the clock', async () => {
  const owner = await stack.createUser();
  await stack.createWebhook(owner.token, `${stack.receiver.url}/advance`, SECRET);
  const accountId = (await stack.call('POST', '/v1/accounts', { token: owner.token, body: { name: 'Main' } })).body.data.id;
  const startAt = new Date(Date.now() + DAY).toISOString();
  const salary = await stack.call('POST', `/v1/accounts/${accountId}/schedules`, {
    token: owner.token,
    body: { amount: 5_000_00, description: 'Salary', rrule: 'FREQ=MONTHLY', startAt, timezone: 'UTC' },
  });
  expect(salary.status, JSON.stringify(salary.body)).toBe(201);
  const advanced = await stack.call('POST', '/v1/clock/advance', { token: owner.token, body: { by: 'P3M' } });
  expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
  expect(advanced.body.data.fired.scheduled).toBe(3);

  const received = await waitUntil(async () => {
    const mine = stack.receiver.received.filter((request) => request.path === '/advance');
    return mine.length === 3 ? mine : null;
  });
  const dates = received.map((request) => JSON.parse(request.rawBody).createdAt as string).sort();
  for (const [month, createdAt] of dates.entries()) {
    const due = new Date(startAt);
    due.setUTCMonth(due.getUTCMonth() + month);
    due.setUTCMilliseconds(0);
    expect(createdAt).toBe(due.toISOString());
  }
  for (const request of received) {
    const body = JSON.parse(request.rawBody);
    expect(body.data.transaction.date).toBe(body.createdAt);
    // The signature's timestamp is wall time, within a minute of now; the body lives months ahead.
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(
      new StandardWebhook(SECRET, { format: 'raw' }).verify(request.rawBody, request.headers as Record<string, string>),
    ).toEqual(body);
  }
});
