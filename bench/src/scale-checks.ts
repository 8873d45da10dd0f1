/**
 * The scale-out bench's correctness checks, against two API processes and two workers:
 * - the per-IP and per-API-key limits hold across both APIs (one shared bucket in PostgreSQL);
 * - no webhook was delivered more often than it was attempted, and every event was delivered.
 */
import http from 'node:http';
import { withClient } from '@sandbank/testing';
import { startFleet } from './fleet.ts';
import type { Receiver } from './receiver.ts';
import { freshDatabase, type Server } from './stack.ts';

export interface LimitCheck {
  /** What was limited, and at how many requests per window. */
  bucket: 'ip' | 'apiKey';
  limit: number;
  sent: number;
  /** 2xx answers, by API port. */
  passedByPort: Record<string, number>;
  passed: number;
  refused: number;
  /** 429s whose `RateLimit-Limit` named this bucket's limit (not another bucket's). */
  refusedByThisBucket: number;
  other: number;
  pass: boolean;
}

const IP_LIMIT = 40;
const KEY_LIMIT = 20;

/**
 * Two APIs with the given store, limits small enough to exhaust. Readiness polls come from
 * 127.0.0.1 (every 2 ms while the first API migrates the fresh database: they can use up that
 * address's limit, which once refused the seeding), seeding from 127.0.0.5, the IP check from
 * 127.0.0.2, the key check from 127.0.0.3 and 127.0.0.4 (so its bucket is the key's, not an
 * address's). Linux routes all of 127.0.0.0/8 to the loopback.
 */
export async function checkRateLimits(server: Server, firstPort: number, store: 'postgres' | 'memory') {
  const databaseUrl = await freshDatabase(server, 'sandbank_scale_limits');
  const fleet = await startFleet(
    2,
    {
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_STORE: store,
      RATE_LIMIT_IP: `${IP_LIMIT}/60`,
      RATE_LIMIT_API_KEY: `${KEY_LIMIT}/60`,
    },
    firstPort,
  );
  try {
    const user = await seedUser(fleet.urls[0] ?? '');
    const ip = await exhaust('ip', IP_LIMIT, (i) => ({
      url: `${fleet.urls[i % 2]}/v1/accounts`,
      token: user.token,
      localAddress: '127.0.0.2',
    }));
    const apiKeyCheck = await exhaust('apiKey', KEY_LIMIT, (i) => ({
      url: `${fleet.urls[i % 2]}/api/owner/${encodeURIComponent(user.email)}/transactions`,
      token: user.apiKey,
      localAddress: Math.floor(i / 2) % 2 === 0 ? '127.0.0.3' : '127.0.0.4',
    }));
    return { store, ip, apiKey: apiKeyCheck };
  } finally {
    await fleet.stop();
  }
}

/** Sends 2 × limit requests, 8 at a time, alternating between the APIs; counts what passed. */
async function exhaust(
  bucket: LimitCheck['bucket'],
  limit: number,
  target: (i: number) => { url: string; token: string; localAddress: string },
): Promise<LimitCheck> {
  const sent = 2 * limit;
  const check: LimitCheck = {
    bucket,
    limit,
    sent,
    passedByPort: {},
    passed: 0,
    refused: 0,
    refusedByThisBucket: 0,
    other: 0,
    pass: false,
  };
  let next = 0;
  const client = async () => {
    while (next < sent) {
      const { url, token, localAddress } = target(next++);
      const answer = await get(url, token, localAddress);
      if (answer.status >= 200 && answer.status < 300) {
        check.passed += 1;
        const port = new URL(url).port;
        check.passedByPort[port] = (check.passedByPort[port] ?? 0) + 1;
      } else if (answer.status === 429) {
        check.refused += 1;
        if (answer.limit === String(limit)) check.refusedByThisBucket += 1;
      } else check.other += 1;
    }
  };
  await Promise.all(Array.from({ length: 8 }, client));
  check.pass = check.passed === limit && check.refusedByThisBucket === sent - limit && check.other === 0;
  return check;
}

const SEEDING_ADDRESS = '127.0.0.5';

/** A user and an API key of theirs, made from SEEDING_ADDRESS. */
async function seedUser(baseUrl: string): Promise<{ email: string; token: string; apiKey: string }> {
  const email = `scale-limits-${Date.now()}@example.com`;
  const registered = await send('POST', `${baseUrl}/v1/auth/register`, SEEDING_ADDRESS, {
    body: { email, password: 'bench-password-1' },
  });
  const token = (registered.json as { data?: { accessToken?: string } }).data?.accessToken;
  if (registered.status !== 201 || !token) throw new Error(`register → ${registered.status}`);
  const created = await send('POST', `${baseUrl}/v1/api-keys`, SEEDING_ADDRESS, { token, body: { name: 'bench' } });
  const apiKey = (created.json as { data?: { key?: string } }).data?.key;
  if (created.status !== 201 || !apiKey) throw new Error(`api key → ${created.status}`);
  return { email, token, apiKey };
}

const get = (url: string, token: string, localAddress: string) => send('GET', url, localAddress, { token });

/** One request from a chosen source address (fetch cannot pick one). */
function send(
  method: string,
  url: string,
  localAddress: string,
  { token, body }: { token?: string; body?: unknown },
): Promise<{ status: number; limit: string | undefined; json: unknown }> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, localAddress, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const limit = response.headers['ratelimit-limit'];
        const text = Buffer.concat(chunks).toString();
        resolve({
          status: response.statusCode ?? 0,
          limit: Array.isArray(limit) ? limit[0] : limit,
          json: text && response.headers['content-type']?.includes('json') ? JSON.parse(text) : undefined,
        });
      });
    });
    request.on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

export interface DeliveryCheck {
  /** Deliveries the relay created (one per event of a user with a webhook). */
  deliveries: number;
  /** Events written after their owner's webhook existed that have no delivery (must be 0). */
  eventsWithoutDelivery: number;
  /** Deliveries whose event id never reached the receiver as `webhook-id` (must be 0). */
  undelivered: number;
  /** Attempts recorded in webhook_delivery_attempts, and those that failed (each may be retried). */
  attempts: number;
  failedAttempts: number;
  /** Deliveries with more than one successful attempt recorded: one job run by two workers (must be 0). */
  succeededTwice: number;
  /**
   * Requests at the receiver beyond the first of each delivery and one per failed attempt (a
   * retry may legitimately resend): a second request for one attempt (must be 0).
   */
  duplicates: number;
  /** Requests whose `webhook-id` the receiver had seen before, whatever the reason. */
  repeatedIds: number;
  pass: boolean;
}

/**
 * The receiver's record against the database's, once every delivery is settled. The receiver
 * answers every request 204, so after one arrival a delivery is done: nothing may follow it
 * except the retry of an attempt the worker recorded as failed (say, a timeout after we answered).
 */
export async function checkDeliveries(databaseUrl: string, receiver: Receiver): Promise<DeliveryCheck> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ event_id: string; succeeded: number; failed: number }>(
      `select d.event_id::text as event_id,
              (count(a.id) filter (where a.error is null))::int as succeeded,
              (count(a.id) filter (where a.error is not null))::int as failed
         from webhook_deliveries d left join webhook_delivery_attempts a on a.delivery_id = d.id
        group by d.id`,
    );
    const { rows: missing } = await client.query<{ count: string }>(
      `select count(*) from events e join webhooks w on w.user_id = e.user_id and e.type = any (w.events)
        where e.created_at > w.created_at
          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.webhook_id = w.id)`,
    );
    const check = { undelivered: 0, attempts: 0, failedAttempts: 0, succeededTwice: 0, duplicates: 0 };
    for (const row of rows) {
      const arrived = receiver.webhookIds.get(row.event_id) ?? 0;
      check.attempts += row.succeeded + row.failed;
      check.failedAttempts += row.failed;
      if (row.succeeded > 1) check.succeededTwice += 1;
      if (arrived === 0) check.undelivered += 1;
      check.duplicates += Math.max(0, arrived - 1 - row.failed);
    }
    const repeatedIds = [...receiver.webhookIds.values()].reduce((sum, count) => sum + count - 1, 0);
    const eventsWithoutDelivery = Number(missing[0]?.count ?? 0);
    const pass =
      rows.length > 0 &&
      eventsWithoutDelivery === 0 &&
      check.undelivered === 0 &&
      check.succeededTwice === 0 &&
      check.duplicates === 0;
    return { deliveries: rows.length, eventsWithoutDelivery, ...check, repeatedIds, pass };
  });
}

/** Waits until every event is relayed and no delivery is still pending (or `timeoutMs` passes). */
export async function waitForSettledDeliveries(databaseUrl: string, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const { rows } = await withClient(databaseUrl, (client) =>
      client.query<{ busy: boolean }>(
        `select exists (select 1 from events where relayed_at is null)
             or exists (select 1 from webhook_deliveries where status = 'pending') as busy`,
      ),
    );
    if (rows[0]?.busy === false) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
