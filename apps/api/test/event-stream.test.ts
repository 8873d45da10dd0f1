/**
 * `GET /v1/events/stream` (docs/guides/webhooks.md): the event log as Server-Sent Events, read by an independent
 * client (the `eventsource` package, the WHATWG EventSource for Node). Gap-free like the cursor:
 * across a burst of transactions that commit out of order, a client that disconnects and resumes
 * with `Last-Event-ID` sees every committed event exactly once. Also: heartbeats, the per-user
 * bound, the cursor's interchangeability with GET /v1/events, and shutdown ending every stream.
 */
import type { AddressInfo } from 'node:net';
import { waitUntil } from '@sandbank/testing';
import { insertAccount, insertTransactionEvent, openAccount, simulate } from '@sandbank/testing/fixtures';
import { EventSource } from 'eventsource';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStreamHandler, eventStreams } from '../src/http/event-stream.ts';
import { inFlightRequests } from '../src/http/in-flight.ts';
import { startApiProcess } from './api-process.ts';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ LIMIT_EVENT_STREAMS: '3' });
});
afterAll(() => app.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Client {
  ids: string[];
  lastEventId: () => string;
  source: EventSource;
  opened: Promise<void>;
}

/** An EventSource with the bearer token, recording every event id and the last SSE id. */
function connect(baseUrl: string, user: TestUser, init: { lastEventId?: string; query?: string } = {}): Client {
  const ids: string[] = [];
  let last = init.lastEventId ?? '';
  const source = new EventSource(`${baseUrl}/v1/events/stream${init.query ?? ''}`, {
    fetch: (url, options) =>
      fetch(url, {
        ...options,
        headers: {
          ...options?.headers,
          authorization: `Bearer ${user.accessToken}`,
          ...(init.lastEventId && !options?.headers?.['Last-Event-ID'] ? { 'last-event-id': init.lastEventId } : {}),
        },
      }),
  });
  source.onmessage = (message) => {
    ids.push((JSON.parse(message.data) as { id: string }).id);
    last = message.lastEventId;
  };
  const opened = new Promise<void>((resolve, reject) => {
    source.onopen = () => resolve();
    source.onerror = (error) => reject(error);
  });
  return { ids, lastEventId: () => last, source, opened };
}

async function committedEventIds(userId: string): Promise<string[]> {
  const { rows } = await app.db.query<{ id: string }>('select id from events where user_id = $1', [userId]);
  return rows.map((row) => row.id).sort();
}

describe('GET /v1/events/stream', () => {
  it('resumes after a disconnect with no gap and no repeat across a burst of out-of-order commits', async () => {
    const owner = await app.createUser();
    const accountId = await openAccount(app, owner);
    let client = connect(app.url, owner);
    await client.opened;
    const seen: string[] = [];
    const rolledBack: string[] = [];
    // Writers hold their transactions open for varying times (≤ 30 ms, so other files' reads of the
    // log are not held back for long), so commits overtake each other; some roll back.
    const writers = Array.from({ length: 5 }, async (_, writer) => {
      const db = await app.db.connect();
      try {
        const own = await insertAccount(db, owner.id);
        for (let round = 0; round < 8; round++) {
          await db.query('begin');
          const { eventId } = await insertTransactionEvent(db, { accountId: own });
          await db.query('select pg_sleep($1)', [((writer * 7 + round * 13) % 4) / 100]);
          if ((writer + round) % 6 === 0) {
            await db.query('rollback');
            rolledBack.push(eventId);
          } else await db.query('commit');
          await sleep(10);
        }
      } finally {
        db.release();
      }
    });
    // Bookings go on until the three cuts are done, so every resumed stream has new events to show
    // however far behind the writers the stream runs (under load it may have caught up with them all).
    let cutsDone = false;
    const booker = (async () => {
      for (let i = 0; i < 10 || (!cutsDone && i < 500); i++) {
        expect((await simulate(app, owner, { accountId, amount: 10 + i })).status).toBe(201);
      }
    })();
    // Three disconnects mid-burst, each resumed from the last id seen.
    for (let cut = 0; cut < 3; cut++) {
      await waitUntil(() => client.ids.length >= 2, { timeoutMs: 30_000, what: 'events before the cut' });
      client.source.close();
      seen.push(...client.ids);
      const resumeAt = client.lastEventId();
      await sleep(60); // commits go on while no one listens
      client = connect(app.url, owner, { lastEventId: resumeAt });
      await client.opened;
    }
    cutsDone = true;
    await Promise.all([...writers, booker]);
    const committed = await committedEventIds(owner.id);
    await waitUntil(() => seen.length + client.ids.length >= committed.length, { timeoutMs: 30_000, what: 'every event' });
    await sleep(300); // nothing more may come
    client.source.close();
    seen.push(...client.ids);

    expect(seen).toHaveLength(new Set(seen).size);
    expect([...seen].sort()).toEqual(committed);
    for (const id of rolledBack) expect(seen).not.toContain(id);
  }, 90_000);

  it('sends the bodies of GET /v1/events, byte for byte; its ids are cursors of that list', async () => {
    const owner = await app.createUser();
    const accountId = await openAccount(app, owner);
    for (const amount of [100, -50, 70]) await simulate(app, owner, { accountId, amount });
    const raw: { data: string; id: string }[] = [];
    const source = new EventSource(`${app.url}/v1/events/stream?types=transaction.created`, {
      fetch: (url, options) =>
        fetch(url, { ...options, headers: { ...options?.headers, authorization: `Bearer ${owner.accessToken}` } }),
    });
    source.onmessage = (message) => raw.push({ data: message.data, id: message.lastEventId });
    await waitUntil(() => raw.length === 3);
    source.close();
    const listed = await app.call('GET', '/v1/events', { token: owner.accessToken });
    expect(raw.map((message) => JSON.parse(message.data))).toEqual(listed.body.data);
    const res = await fetch(`${app.url}/v1/events/${listed.body.data[0].id}`, {
      headers: { authorization: `Bearer ${owner.accessToken}` },
    });
    const text = await res.text();
    expect(text).toContain(raw[0]!.data);
    const afterFirst = await app.call('GET', `/v1/events?after=${raw[0]!.id}`, { token: owner.accessToken });
    expect(afterFirst.body.data.map((event: { id: string }) => event.id)).toEqual(
      listed.body.data.slice(1).map((e: { id: string }) => e.id),
    );
  });

  it('refuses without a token, with a malformed Last-Event-ID, unknown kinds, and past the per-user bound', async () => {
    const owner = await app.createUser();
    const anonymous = await fetch(`${app.url}/v1/events/stream`);
    expect(anonymous.status).toBe(401);
    const headers = { authorization: `Bearer ${owner.accessToken}` };
    const malformed = await fetch(`${app.url}/v1/events/stream`, { headers: { ...headers, 'last-event-id': 'nope!' } });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: string }).code).toBe('VALIDATION_ERROR');
    const kinds = await fetch(`${app.url}/v1/events/stream?types=nope`, { headers });
    expect(kinds.status).toBe(400);

    const open = [connect(app.url, owner), connect(app.url, owner), connect(app.url, owner)];
    await Promise.all(open.map((client) => client.opened));
    const fourth = await fetch(`${app.url}/v1/events/stream`, { headers });
    expect(fourth.status).toBe(422);
    expect(((await fourth.json()) as { code: string }).code).toBe('LIMIT_EXCEEDED');
    // Another user is not counted against this one.
    const other = connect(app.url, await app.createUser());
    await other.opened;
    open[0]!.source.close();
    await sleep(100);
    const again = connect(app.url, owner);
    await again.opened;
    for (const client of [...open, other, again]) client.source.close();
  });
});

describe('heartbeats and shutdown', () => {
  it('sends heartbeats while idle, and close() ends every stream so the server closes at once', async () => {
    const streams = eventStreams();
    const inFlight = inFlightRequests();
    const server = express()
      .get('/v1/events/stream', eventStreamHandler(app.deps, inFlight, streams, { heartbeatMs: 100, pollMs: 20 }))
      .listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const owner = await app.createUser();
    const res = await fetch(`${url}/v1/events/stream`, { headers: { authorization: `Bearer ${owner.accessToken}` } });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    let text = '';
    const decoder = new TextDecoder();
    while ((text.match(/: heartbeat/g) ?? []).length < 2) {
      const { value } = await reader.read();
      text += decoder.decode(value);
    }
    expect(streams.size).toBe(1);

    const started = Date.now();
    const closed = new Promise((resolve) => server.close(resolve));
    streams.close();
    for (;;) if ((await reader.read()).done) break;
    await closed;
    await inFlight.settled();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(streams.size).toBe(0);
    const refused = await fetch(`${url}/v1/events/stream`).catch(() => null);
    expect(refused).toBeNull(); // the server is gone
  });
});

describe('the API process', () => {
  it('stops at once with event streams open (SIGTERM ends them)', { timeout: 60_000 }, async () => {
    const api = await startApiProcess({
      LOG_LEVEL: 'error',
      LOG_PRETTY: 'false',
      RATE_LIMIT_ENABLED: 'false',
      DATABASE_URL: app.databaseUrl,
    });
    await api.ready();
    const register = await fetch(`${api.baseUrl}/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `stream.${Date.now()}@example.com`, password: 'stream-password-1' }),
    });
    const { data } = (await register.json()) as { data: { accessToken: string } };
    const readers = await Promise.all(
      [0, 1].map(async () => {
        const res = await fetch(`${api.baseUrl}/v1/events/stream`, { headers: { authorization: `Bearer ${data.accessToken}` } });
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        await reader.read(); // the opening comment
        return reader;
      }),
    );
    const started = Date.now();
    const code = await api.stop(8_000);
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const reader of readers) await reader.cancel().catch(() => {});
  });
});
