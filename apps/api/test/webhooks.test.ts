import { insertAccount, insertTransactionEvent } from '@sandbank/testing/fixtures';
import { openSecret } from '@sandbank/webhooks';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const SECRET = 'whsec-test-0123456789abcdef';
const input = (overrides: Record<string, unknown> = {}) => ({
  url: 'http://127.0.0.1:9/hooks',
  secret: SECRET,
  events: ['transaction.created'],
  clientId: 'budget-app',
  ...overrides,
});

async function createWebhook(user: TestUser, overrides: Record<string, unknown> = {}) {
  const res = await app.call('POST', '/v1/webhooks', { token: user.accessToken, body: input(overrides) });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}

/** A delivery of a real event to the webhook, with one recorded attempt. */
async function insertDelivery(user: TestUser, webhookId: string, status = 'failed') {
  const accountId = await insertAccount(app.db, user.id);
  const { eventId } = await insertTransactionEvent(app.db, { accountId });
  const deliveryId = uuidv7();
  await app.db.query(
    `insert into webhook_deliveries (id, webhook_id, event_id, status, attempt_count, last_status_code, completed_at)
     values ($1, $2, $3, $4, 1, 500, now())`,
    [deliveryId, webhookId, eventId, status],
  );
  await app.db.query(
    `insert into webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error)
     values ($1, $2, 1, now(), 12, 500, 'HTTP 500')`,
    [uuidv7(), deliveryId],
  );
  return { deliveryId, eventId };
}

describe('POST /v1/webhooks', () => {
  it('registers a webhook, returns it without the secret and stores the secret encrypted', async () => {
    const user = await app.createUser();
    const res = await app.call('POST', '/v1/webhooks', { token: user.accessToken, body: input() });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      url: 'http://127.0.0.1:9/hooks',
      events: ['transaction.created'],
      clientId: 'budget-app',
      status: 'active',
      disabledReason: null,
      secretRotatedAt: null,
      secretOverlapEndsAt: null,
      faults: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    const { rows } = await app.db.query('select secret_ciphertext, secret_key_id from webhooks where id = $1', [
      res.body.data.id,
    ]);
    expect(rows[0].secret_ciphertext).not.toContain(SECRET);
    const secret = openSecret(
      { keyId: rows[0].secret_key_id, ciphertext: rows[0].secret_ciphertext },
      app.deps.secrets.encryptionKeys,
    );
    expect(secret).toBe(SECRET);
    expect(app.logs.join('')).not.toContain(SECRET);
  });

  it('PATCH refuses a whsec_ secret that is not a key and keeps the one the webhook had', async () => {
    const user = await app.createUser();
    const created = await app.call('POST', '/v1/webhooks', { token: user.accessToken, body: input() });
    const refused = await app.call('PATCH', `/v1/webhooks/${created.body.data.id}`, {
      token: user.accessToken,
      body: { secret: 'whsec_AAAAAAAAAAAAAAAAAAAA' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'secret', message: 'A whsec_ secret must encode at least 16 bytes (it encodes 15)' }],
    });
    const { rows } = await app.db.query('select secret_ciphertext, secret_key_id from webhooks where id = $1', [
      created.body.data.id,
    ]);
    const kept = openSecret(
      { keyId: rows[0].secret_key_id, ciphertext: rows[0].secret_ciphertext },
      app.deps.secrets.encryptionKeys,
    );
    expect(kept).toBe(SECRET);
  });

  it.each([
    ['a short secret', { secret: 'short' }, 'secret'],
    ['a secret with spaces', { secret: 'has spaces in it 12345' }, 'secret'],
    ['a non-ASCII secret', { secret: 'zażółć-gęślą-jaźń-123' }, 'secret'],
    ['a secret over 256 characters', { secret: 'x'.repeat(257) }, 'secret'],
    ['a whsec_ secret that is not base64', { secret: 'whsec_not-base64_0123456789' }, 'secret'],
    ['a whsec_ secret without its padding', { secret: 'whsec_MfKQ9r8GKYqrTFKsLLBAkyVE0tOAtMH' }, 'secret'],
    ['a whsec_ secret of 15 bytes', { secret: `whsec_${Buffer.alloc(15, 7).toString('base64')}` }, 'secret'],
    ['no events', { events: [] }, 'events'],
    ['an unknown event kind', { events: ['account.closed'] }, 'events.0'],
    ['duplicate events', { events: ['transaction.created', 'transaction.created'] }, 'events'],
    ['an ftp URL', { url: 'ftp://example.com/hooks' }, 'url'],
    ['a relative URL', { url: '/hooks' }, 'url'],
    ['an empty clientId', { clientId: ' ' }, 'clientId'],
    ['an unknown field', { active: true }, 'active'],
  ])('refuses %s with 400 VALIDATION_ERROR', async (_, overrides, path) => {
    const user = await app.createUser();
    const res = await app.call('POST', '/v1/webhooks', { token: user.accessToken, body: input(overrides) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details).toContainEqual({ path, message: expect.any(String) });
    expect(app.logs.join('')).not.toContain(SECRET);
  });
});

describe('URL safety at registration', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
  });
  afterAll(() => strict.close());

  it.each([
    'http://127.0.0.1:8080/hooks',
    'http://localhost:8080/hooks',
    'http://[::1]/hooks',
    'http://[::ffff:192.168.0.1]/hooks',
    'http://10.1.2.3/hooks',
    'http://169.254.169.254/latest/meta-data',
    'http://0.0.0.0/hooks',
    'https://user:pass@1.1.1.1/hooks',
  ])('refuses %s unless private URLs are allowed', async (url) => {
    const user = await strict.createUser();
    const res = await strict.call('POST', '/v1/webhooks', { token: user.accessToken, body: input({ url }) });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: 'url', message: expect.any(String) }]);
  });

  it('answers alike for a name that does not resolve and one that resolves to a private address', async () => {
    const user = await strict.createUser();
    const answers = [];
    for (const url of ['http://nowhere.invalid/hooks', 'http://localhost/hooks', 'http://[::127.0.0.1]/hooks']) {
      const { status, body } = await strict.call('POST', '/v1/webhooks', { token: user.accessToken, body: input({ url }) });
      answers.push({ status, code: body.code, message: body.message, details: body.details });
    }
    expect(answers[0]).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(answers).toEqual([answers[0], answers[0], answers[0]]);
  });

  it('accepts a public address', async () => {
    const user = await strict.createUser();
    const res = await strict.call('POST', '/v1/webhooks', {
      token: user.accessToken,
      body: input({ url: 'https://1.1.1.1/hooks' }),
    });
    expect(res.status).toBe(201);
  });
});

describe('GET /v1/webhooks', () => {
  it("lists the caller's webhooks, newest first, narrowed by clientId", async () => {
    const user = await app.createUser();
    const other = await app.createUser();
    const first = await createWebhook(user, { clientId: 'app-a' });
    const second = await createWebhook(user, { clientId: 'app-b' });
    await createWebhook(other, { clientId: 'app-a' });

    const all = await app.call('GET', '/v1/webhooks', { token: user.accessToken });
    expect(all.status).toBe(200);
    expect(all.body.data.map((w: { id: string }) => w.id)).toEqual([second.id, first.id]);
    expect(all.body.meta).toEqual({ page: 1, limit: 50, total: 2, hasMore: false });

    const appA = await app.call('GET', '/v1/webhooks?clientId=app-a&limit=1', { token: user.accessToken });
    expect(appA.body.data.map((w: { id: string }) => w.id)).toEqual([first.id]);
    expect(appA.body.meta).toEqual({ page: 1, limit: 1, total: 1, hasMore: false });
  });
});

describe('DELETE /v1/webhooks/:id', () => {
  it('deletes the webhook: it leaves the list and a second delete is 404', async () => {
    const user = await app.createUser();
    const webhook = await createWebhook(user);
    const res = await app.call('DELETE', `/v1/webhooks/${webhook.id}`, { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: webhook.id, deleted: true });
    const list = await app.call('GET', '/v1/webhooks', { token: user.accessToken });
    expect(list.body.data).toEqual([]);
    const again = await app.call('DELETE', `/v1/webhooks/${webhook.id}`, { token: user.accessToken });
    expect(again.status).toBe(404);
  });
});

describe('GET /v1/webhooks/:id/deliveries', () => {
  it('lists deliveries with their attempts', async () => {
    const user = await app.createUser();
    const webhook = await createWebhook(user);
    const { deliveryId, eventId } = await insertDelivery(user, webhook.id);
    const res = await app.call('GET', `/v1/webhooks/${webhook.id}/deliveries`, { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 50, total: 1, hasMore: false });
    expect(res.body.data).toEqual([
      {
        id: deliveryId,
        webhookId: webhook.id,
        eventId,
        eventType: 'transaction.created',
        status: 'failed',
        attemptCount: 1,
        lastStatusCode: 500,
        nextAttemptAt: null,
        createdAt: expect.any(String),
        completedAt: expect.any(String),
        attempts: [
          {
            attempt: 1,
            at: expect.any(String),
            statusCode: 500,
            durationMs: 12,
            error: 'HTTP 500',
            nextAttemptAt: null,
            faults: [],
            request: null,
            response: null,
            exchangeRemovedAt: null,
          },
        ],
      },
    ]);
  });

  it("maps each attempt's recorded request and response, and no column beyond them", async () => {
    const user = await app.createUser();
    const webhook = await createWebhook(user);
    const { deliveryId } = await insertDelivery(user, webhook.id);
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': '1764130000', 'webhook-signature': 'v1,abc=' };
    const body = '{"id":"evt_1","type":"transaction.created"}';
    await app.db.query(
      `insert into webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, faults,
                                              request_url, request_headers, request_body,
                                              response_status, response_headers, response_body, response_body_truncated)
       values ($1, $2, 2, now(), 9, 503, 'fault: HTTP 503 (the receiver answered HTTP 200)', '[{"kind":"failure","status":503}]',
               'http://127.0.0.1:9/hooks', $3, $4, 200, '{"content-type":"text/plain"}', 'ok, zażółć', true),
              ($5, $2, 3, now(), 1000, null, 'timeout after 1000 ms', '[]', 'http://127.0.0.1:9/hooks', $3, $4, null, null, null, false)`,
      [uuidv7(), deliveryId, JSON.stringify(headers), body, uuidv7()],
    );
    const res = await app.call('GET', `/v1/webhooks/${webhook.id}/deliveries`, { token: user.accessToken });
    expect(res.status).toBe(200);
    const [, faulted, timedOut] = res.body.data[0].attempts;
    expect(faulted).toEqual({
      attempt: 2,
      at: expect.any(String),
      statusCode: 503,
      durationMs: 9,
      error: 'fault: HTTP 503 (the receiver answered HTTP 200)',
      nextAttemptAt: null,
      faults: [{ kind: 'failure', status: 503 }],
      request: { method: 'POST', url: 'http://127.0.0.1:9/hooks', httpHeaders: headers, body },
      response: { statusCode: 200, httpHeaders: { 'content-type': 'text/plain' }, body: 'ok, zażółć', bodyTruncated: true },
      exchangeRemovedAt: null,
    });
    expect(timedOut).toMatchObject({ attempt: 3, statusCode: null, request: { body }, response: null, exchangeRemovedAt: null });
  });

  it('says when retention removed an attempt’s request and response, and keeps the attempt', async () => {
    const user = await app.createUser();
    const webhook = await createWebhook(user);
    const { deliveryId } = await insertDelivery(user, webhook.id);
    // What the worker's retention leaves (apps/worker/src/retention/queries.ts): the exchange columns cleared, the time stamped.
    await app.db.query(
      `insert into webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, faults,
                                              exchange_removed_at)
       values ($1, $2, 2, '2026-11-01T10:00:00Z', 40, 200, null, '[{"kind":"latency","ms":30}]', '2026-11-08T10:05:00.123Z')`,
      [uuidv7(), deliveryId],
    );
    const res = await app.call('GET', `/v1/webhooks/${webhook.id}/deliveries`, { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.data[0].attempts[1]).toEqual({
      attempt: 2,
      at: '2026-11-01T10:00:00.000Z',
      statusCode: 200,
      durationMs: 40,
      error: null,
      nextAttemptAt: null,
      faults: [{ kind: 'latency', ms: 30 }],
      request: null,
      response: null,
      exchangeRemovedAt: '2026-11-08T10:05:00.123Z',
    });
  });

  it('is 404 for an unknown webhook', async () => {
    const user = await app.createUser();
    const res = await app.call('GET', `/v1/webhooks/${uuidv7()}/deliveries`, { token: user.accessToken });
    expect(res.status).toBe(404);
  });
});

describe('POST /v1/webhooks/:id/deliveries/:deliveryId/redeliver', () => {
  const redeliverPath = (webhookId: string, deliveryId: string) => `/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`;

  it('queues the delivery again (one job per delivery, however often it is asked)', async () => {
    const user = await app.createUser();
    const webhook = await createWebhook(user);
    const { deliveryId } = await insertDelivery(user, webhook.id);
    for (let i = 0; i < 2; i++) {
      const res = await app.call('POST', redeliverPath(webhook.id, deliveryId), { token: user.accessToken, body: {} });
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ id: deliveryId, status: 'pending', completedAt: null, attemptCount: 1 });
    }
    const { rows } = await app.db.query(`select payload, flags from graphile_worker._private_jobs where key = $1`, [
      `delivery:${deliveryId}`,
    ]);
    // One job (the key replaces the waiting one), of the newest cycle: two redeliveries after the first → cycle 3,
    // flagged with its owner so a worker caps that user's attempts in flight.
    expect(rows).toEqual([
      { payload: { deliveryId, attempt: 1, cycle: 3, userId: user.id }, flags: { [`user:${user.id}`]: true } },
    ]);
  });

  it('is 409 CONFLICT for a disabled webhook and 404 for an unknown delivery', async () => {
    const user = await app.createUser();
    const webhook = await createWebhook(user);
    const { deliveryId } = await insertDelivery(user, webhook.id);
    const unknown = await app.call('POST', redeliverPath(webhook.id, uuidv7()), { token: user.accessToken, body: {} });
    expect(unknown.status).toBe(404);
    await app.db.query(`update webhooks set status = 'disabled', disabled_reason = 'test' where id = $1`, [webhook.id]);
    const res = await app.call('POST', redeliverPath(webhook.id, deliveryId), { token: user.accessToken, body: {} });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
  });
});
