/**
 * Retention of attempts' recorded exchanges (docs/guides/webhooks.md, "How long exchanges are
 * kept"): past WEBHOOK_ATTEMPT_RETENTION_HOURS of real time an attempt's request and response are
 * cleared, a batch per statement, the attempt itself kept; two runs at once neither wait for each
 * other nor clear (or count) an attempt twice; the API then says when the exchange was removed.
 */

import { waitUntil } from '@sandbank/testing';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearExpiredAttemptExchanges } from '../src/retention/queries.ts';
import { type Receiver, startReceiver } from './receiver.ts';
import { type Stack, startStack } from './stack.ts';

const RETENTION_HOURS = 168;
const BODY = `{"id":"evt","data":"${'x'.repeat(3000)}"}`;

let stack: Stack;
let receiver: Receiver;
let deliveryId: string;
beforeAll(async () => {
  // No worker until the last test: these call the statement themselves.
  stack = await startStack();
  receiver = await startReceiver();
  const owner = await stack.createUser();
  const webhook = await stack.createWebhook(owner.token, `${receiver.url}/seeded`, 'whsec-retention-0123456789abcdef');
  const { eventId } = await stack.commitEvent(owner.id);
  // The relay would make a delivery for the event when a worker runs; this one is ours.
  deliveryId = uuidv7();
  await stack.db.query(
    `insert into webhook_deliveries (id, webhook_id, event_id, status, attempt_count, completed_at)
     values ($1, $2, $3, 'failed', 0, now()) on conflict (webhook_id, event_id) do nothing`,
    [deliveryId, webhook.id, eventId],
  );
});
afterAll(async () => {
  await stack.close();
  await receiver.close();
});
beforeEach(async () => {
  await stack.db.query('delete from webhook_delivery_attempts');
});

/** `count` attempts that started `ageHours` (and a second per attempt more) ago, with their exchange. */
async function seedAttempts(count: number, ageHours: number, first = 1): Promise<void> {
  await stack.db.query(
    `insert into webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, faults,
                                            request_url, request_headers, request_body,
                                            response_status, response_headers, response_body, response_body_truncated)
     select gen_random_uuid(), $1, $2 + g, now() - make_interval(hours => $3, secs => g), 10 + g, 500, 'HTTP 500',
            '[{"kind":"latency","ms":5}]', 'http://127.0.0.1:9/hook', '{"webhook-id":"evt"}', $5,
            500, '{"content-type":"text/plain"}', 'nope', g % 2 = 0
       from generate_series(0, $4 - 1) g`,
    [deliveryId, first, ageHours, count, BODY],
  );
}

interface AttemptRow {
  attempt: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  faults: unknown;
  request_url: string | null;
  request_headers: unknown;
  request_body: string | null;
  response_status: number | null;
  response_headers: unknown;
  response_body: string | null;
  response_body_truncated: boolean;
  exchange_removed_at: Date | null;
}

async function attempts(): Promise<AttemptRow[]> {
  const { rows } = await stack.db.query<AttemptRow>('select * from webhook_delivery_attempts order by attempt');
  return rows;
}

const clear = (db: Pick<pg.Pool, 'query'>, batchSize = 1000) =>
  clearExpiredAttemptExchanges(db, { retentionHours: RETENTION_HOURS, batchSize });

describe('clearing expired exchanges', () => {
  it('clears the request and response of attempts past the retention and keeps every attempt', async () => {
    await seedAttempts(5, RETENTION_HOURS + 1, 1);
    await seedAttempts(3, RETENTION_HOURS - 1, 10);
    // An attempt recorded before exchanges were kept: nothing to remove, and it must not claim otherwise.
    await stack.db.query(
      `insert into webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error)
       values ($1, $2, 20, now() - interval '400 days', 7, 200, null)`,
      [uuidv7(), deliveryId],
    );
    const before = await attempts();

    expect(await clear(stack.db)).toBe(5);
    const after = await attempts();
    expect(after).toHaveLength(9);
    for (const [index, row] of after.entries()) {
      const was = before[index] as AttemptRow;
      // The attempt itself is untouched.
      expect(row).toMatchObject({
        attempt: was.attempt,
        started_at: was.started_at,
        duration_ms: was.duration_ms,
        status_code: was.status_code,
        error: was.error,
        faults: was.faults,
      });
      if (row.attempt < 10) {
        expect(row).toMatchObject({
          request_url: null,
          request_headers: null,
          request_body: null,
          response_status: null,
          response_headers: null,
          response_body: null,
          response_body_truncated: false,
        });
        expect(Math.abs((row.exchange_removed_at as Date).getTime() - Date.now())).toBeLessThan(60_000);
      } else {
        expect(row).toEqual(was); // recent, or never recorded
      }
    }
    // Nothing is left to clear: a second run clears and counts nothing.
    expect(await clear(stack.db)).toBe(0);
  });

  it('clears one bounded batch per statement, oldest first', async () => {
    await seedAttempts(10, RETENTION_HOURS + 1);
    expect(await clear(stack.db, 3)).toBe(3);
    const cleared = (await attempts()).filter((row) => row.exchange_removed_at !== null).map((row) => row.attempt);
    // seedAttempts dates attempt n n seconds further back: the three oldest are the highest numbers.
    expect(cleared).toEqual([8, 9, 10]);
    const batches = [];
    for (let n = await clear(stack.db, 3); n > 0; n = await clear(stack.db, 3)) batches.push(n);
    expect(batches).toEqual([3, 3, 1]);
  });

  it('lets a second run take other attempts instead of waiting for the first, and clears none twice', async () => {
    await seedAttempts(10, RETENTION_HOURS + 1);
    const first = await stack.db.connect();
    const second = await stack.db.connect();
    try {
      // A wait for the first run's row locks would fail the second run instead of hanging the test.
      await second.query(`set lock_timeout = '1s'`);
      await first.query('begin');
      expect(await clear(first, 4)).toBe(4);
      // The first run holds its 4 rows, uncommitted: the second skips them.
      expect(await clear(second, 4)).toBe(4);
      expect(await clear(second, 4)).toBe(2);
      expect(await clear(second, 4)).toBe(0);
      await first.query('commit');
      expect(await clear(second, 4)).toBe(0);
    } finally {
      // Closed, not pooled: a failed run must leave neither its locks nor the timeout behind.
      first.release(true);
      second.release(true);
    }
    const rows = await attempts();
    expect(rows.filter((row) => row.exchange_removed_at !== null)).toHaveLength(10);
  });

  it('two workers clearing at once on their own connections: each attempt cleared and counted once, no deadlock', async () => {
    await seedAttempts(400, RETENTION_HOURS + 1);
    await seedAttempts(50, RETENTION_HOURS - 1, 1000);
    const pools = [0, 1].map(() => new pg.Pool({ connectionString: stack.databaseUrl, max: 3 }));
    try {
      // Three loops per "worker", each repeating small batches until nothing is left.
      const loops = pools.flatMap((pool) =>
        [0, 1, 2].map(async () => {
          let total = 0;
          for (let n = await clear(pool, 7); n > 0; n = await clear(pool, 7)) total += n;
          return total;
        }),
      );
      const totals = await Promise.all(loops);
      expect(totals.reduce((sum, n) => sum + n, 0)).toBe(400);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
    const { rows } = await stack.db.query<{ removed: string; kept: string }>(
      `select count(*) filter (where exchange_removed_at is not null and request_body is null) as removed,
              count(*) filter (where exchange_removed_at is null and request_body = $1) as kept
         from webhook_delivery_attempts`,
      [BODY],
    );
    expect(rows[0]).toEqual({ removed: '400', kept: '50' });
  });
});

describe('the worker', () => {
  it('clears a real attempt once it is past the retention in real time, not on the world’s clock, and the API says so', async () => {
    const owner = await stack.createUser();
    const webhook = await stack.createWebhook(owner.token, `${receiver.url}/kept`, 'whsec-retention-0123456789abcdef');
    const worker = await stack.worker({ WORKER_ATTEMPT_RETENTION_MS: '50' });
    await stack.commitEvent(owner.id);
    const deliveries = async () =>
      (await stack.call('GET', `/v1/webhooks/${webhook.id}/deliveries`, { token: owner.token })).body.data;
    const [delivered] = await waitUntil(async () => {
      const list = await deliveries();
      return list[0]?.status === 'succeeded' ? list : null;
    });
    const attempt = delivered.attempts[0];
    expect(attempt).toMatchObject({ statusCode: 200, exchangeRemovedAt: null, request: { method: 'POST' } });

    // A year on the owner's clock is not a year of real time: the exchange stays.
    const advanced = await stack.call('POST', '/v1/clock/advance', { token: owner.token, body: { by: 'P1Y' } });
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
    expect(await worker.attemptRetention.runOnce()).toBe(0);
    expect((await deliveries())[0].attempts[0]).toEqual(attempt);

    // Eight days of real time later (the attempt moved back instead), the worker's own loop clears it.
    await stack.db.query(
      `update webhook_delivery_attempts a set started_at = started_at - interval '8 days'
         from webhook_deliveries d where d.id = a.delivery_id and d.webhook_id = $1`,
      [webhook.id],
    );
    const [removed] = await waitUntil(
      async () => {
        const list = await deliveries();
        return list[0]?.attempts[0]?.exchangeRemovedAt ? list : null;
      },
      { what: 'the exchange removed' },
    );
    expect(removed).toMatchObject({ status: 'succeeded', attemptCount: 1, lastStatusCode: 200 });
    expect(removed.attempts).toEqual([
      {
        ...attempt,
        at: new Date(new Date(attempt.at).getTime() - 8 * 86_400_000).toISOString(),
        request: null,
        response: null,
        exchangeRemovedAt: expect.any(String),
      },
    ]);
  });
});
