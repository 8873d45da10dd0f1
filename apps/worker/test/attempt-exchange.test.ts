/**
 * Each attempt records its exchange (docs/guides/webhooks.md): the request as a real receiver got
 * it (same headers, same signature, byte-equal body) and the receiver's answer — status, kept
 * headers, the first 2 KB of the body as UTF-8, and whether there was more. Nothing of the
 * signing secret is stored.
 */

import { waitUntil } from '@sandbank/testing';
import { verifySignature } from '@sandbank/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Received } from './receiver.ts';
import { type DeliveryStack, startDeliveryStack } from './stack.ts';

let stack: DeliveryStack;
const LARGE = `a${'é'.repeat(1500)}`;
beforeAll(async () => {
  stack = await startDeliveryStack();
  stack.receiver.respond = (request) => {
    if (request.path === '/exchange/json')
      return { status: 202, body: '{"accepted":true,"note":"zażółć"}', headers: { 'content-type': 'application/json' } };
    // 3001 bytes: cut at 2 KB in the middle of an "é".
    if (request.path === '/exchange/large') return { status: 200, body: LARGE };
    if (request.path === '/exchange/huge') return { status: 500, body: 'x'.repeat(10_000) };
    if (request.path === '/exchange/binary') return { status: 200, body: Buffer.from([0xff, 0x00, 0x41]) };
    if (request.path === '/exchange/faulted') return { status: 200, body: 'fine here' };
    return 200;
  };
});
afterAll(() => stack.close());

const SECRET = 'whsec-exchange-0123456789abcdef';

async function deliverTo(path: string, faults?: unknown) {
  const owner = await stack.createUser();
  const webhook = await stack.createWebhook(owner.token, `${stack.receiver.url}${path}`, SECRET);
  if (faults) await stack.call('PATCH', `/v1/webhooks/${webhook.id}`, { token: owner.token, body: { faults } });
  const before = stack.receiver.received.filter((request) => request.path === path).length;
  const { eventId } = await stack.commitEvent(owner.id);
  const row = await waitUntil(async () => {
    const { rows } = await stack.db.query(
      `select a.*, a::text as whole from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id
        where d.webhook_id = $1 order by a.attempt limit 1`,
      [webhook.id],
    );
    return rows[0] ?? null;
  });
  const received = stack.receiver.received.filter((request) => request.path === path)[before] as Received;
  return { owner, webhook, eventId, row, received };
}

describe('an attempt’s request and response', () => {
  it('stores the request as the receiver got it, the answer, and nothing of the secret', async () => {
    const { row, received, eventId } = await deliverTo('/exchange/json');
    expect(row.request_url).toBe(`${stack.receiver.url}/exchange/json`);
    // Byte-equal body, and the same headers (the receiver lowercases names; the client adds host and content-length).
    expect(Buffer.from(row.request_body, 'utf8').equals(received.rawBytes)).toBe(true);
    const stored = row.request_headers as Record<string, string>;
    for (const [name, value] of Object.entries(stored))
      expect([name, received.headers[name.toLowerCase()]]).toEqual([name, value]);
    expect(Object.keys(stored).map((name) => name.toLowerCase())).toEqual(
      expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type', 'user-agent']),
    );
    expect(stored['webhook-id']).toBe(eventId);
    expect(stored['webhook-signature']).toBe(received.headers['webhook-signature']);
    // What was stored verifies with the secret, as the request did.
    expect(verifySignature(stored, row.request_body, SECRET)).toBe(true);

    expect(row.status_code).toBe(202);
    expect(row.response_status).toBe(202);
    expect(row.response_headers).toEqual({ 'content-type': 'application/json', 'content-length': '37' });
    expect(row.response_body).toBe('{"accepted":true,"note":"zażółć"}');
    expect(row.response_body_truncated).toBe(false);

    // The secret, in any spelling, is nowhere in the row.
    const whole = String(row.whole);
    for (const spelling of [
      SECRET,
      Buffer.from(SECRET).toString('base64'),
      Buffer.from(SECRET).toString('hex'),
      'exchange-0123',
    ]) {
      expect(whole).not.toContain(spelling);
    }
  });

  it('keeps the first 2 KB of a long answer, cut on a character, and says it was truncated', async () => {
    const large = await deliverTo('/exchange/large');
    expect(large.row.response_status).toBe(200);
    expect(large.row.response_body).toBe(`a${'é'.repeat(1023)}`);
    expect(Buffer.byteLength(large.row.response_body)).toBe(2047);
    expect(large.row.response_body_truncated).toBe(true);
    expect(large.row.response_headers).toEqual({ 'content-type': 'text/plain', 'content-length': '3001' });

    // Longer than the read limit too: the excerpt is still 2 KB, and the failing answer is kept.
    const huge = await deliverTo('/exchange/huge');
    expect(huge.row).toMatchObject({ status_code: 500, response_status: 500, response_body_truncated: true });
    expect(huge.row.response_body).toBe('x'.repeat(2048));
  });

  it('decodes invalid UTF-8 and NUL with replacement characters', async () => {
    const { row } = await deliverTo('/exchange/binary');
    expect(row.response_body).toBe('\uFFFD\uFFFDA');
    expect(row.response_body_truncated).toBe(false);
  });

  it('keeps the receiver’s real answer when a failure fault counts another', async () => {
    const { row } = await deliverTo('/exchange/faulted', { failure: { rate: 1, status: 503 } });
    expect(row).toMatchObject({ status_code: 503, response_status: 200, response_body: 'fine here' });
    expect(row.error).toContain('fault: HTTP 503');
  });

  it('stores the request but no response when none came', async () => {
    stack.receiver.respond = (request) => (request.path === '/exchange/hang' ? 'hang' : 200);
    const { row, received } = await deliverTo('/exchange/hang');
    expect(row.status_code).toBeNull();
    expect(row.error).toMatch(/timeout/);
    expect(Buffer.from(row.request_body, 'utf8').equals(received.rawBytes)).toBe(true);
    expect(row).toMatchObject({
      response_status: null,
      response_headers: null,
      response_body: null,
      response_body_truncated: false,
    });
  });
});
