/**
 * `GET /v1/events/stream` (docs/guides/webhooks.md): the event log as Server-Sent Events, read by an independent
 * client (the `eventsource` package, the WHATWG EventSource for Node). Gap-free like the cursor:
 * across a burst of transactions that commit out of order, a client that disconnects and resumes
 * with `Last-Event-ID` sees every committed event exactly once. Also: heartbeats, the per-user
 * bound, the cursor's interchangeability with GET /v1/events, and shutdown ending every stream.
 * A stream ends with its credential: at the access token's expiry, and within the re-check interval
 * of its child world's removal or TTL, each time with a last `event: error` message; a healthy
 * stream is never ended by the re-check.
 */
import type { AddressInfo } from 'node:net';
import { signAccessToken, verifyAccessToken } from '@sandbank/core';
import { pause, waitUntil } from '@sandbank/testing';
import { insertAccount, insertTransactionEvent, openAccount, simulate } from '@sandbank/testing/fixtures';
import { EventSource } from 'eventsource';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStreamHandler, eventStreams, type StreamOptions } from '../src/http/event-stream.ts';
import { inFlightRequests } from '../src/http/in-flight.ts';
import { startApiProcess } from './api-process.ts';
import { startTestApp, type TestApp, type TestUser, visibleEvents } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ LIMIT_EVENT_STREAMS: '3' });
});
afterAll(() => app.close());

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
          await pause(10, 'writers interleave with the stream instead of finishing before it');
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
      await pause(60, 'commits go on while no one listens');
      client = connect(app.url, owner, { lastEventId: resumeAt });
      await client.opened;
    }
    cutsDone = true;
    await Promise.all([...writers, booker]);
    const committed = await committedEventIds(owner.id);
    await waitUntil(() => seen.length + client.ids.length >= committed.length, { timeoutMs: 30_000, what: 'every event' });
    await pause(300, 'nothing more may come: time for a duplicate to show');
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
    await pause(100, "the server has seen the first stream's close (no event tells it)");
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

interface SseMessage {
  event?: string;
  id?: string;
  data: string;
}

interface SseReader {
  messages: SseMessage[];
  /** The events' bodies' ids (messages with an `id`). */
  eventIds: () => string[];
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  done: () => boolean;
  cancel: () => Promise<void>;
}

/** Reads an SSE response as it comes, message by message (comments skipped). */
function readSse(res: Response): SseReader {
  const messages: SseMessage[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let finished = false;
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const message: SseMessage = { data: '' };
        let hasData = false;
        for (const line of block.split('\n')) {
          const colon = line.indexOf(': ');
          if (line.startsWith(':') || colon < 0) continue;
          const [field, value] = [line.slice(0, colon), line.slice(colon + 2)];
          if (field === 'event') message.event = value;
          else if (field === 'id') message.id = value;
          else if (field === 'data') {
            message.data = value;
            hasData = true;
          }
        }
        if (hasData) messages.push(message);
      }
    }
    finished = true;
  })();
  return {
    messages,
    eventIds: () => messages.filter((m) => m.id !== undefined).map((m) => (JSON.parse(m.data) as { id: string }).id),
    ended,
    done: () => finished,
    cancel: () => reader.cancel().catch(() => {}),
  };
}

async function openStream(baseUrl: string, token: string, lastEventId?: string): Promise<SseReader> {
  const res = await fetch(`${baseUrl}/v1/events/stream`, {
    headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
  });
  expect(res.status, await (res.ok ? '' : res.clone().text())).toBe(200);
  return readSse(res);
}

/** The stream handler alone on its own server (the app's deps and database), with fast timings. */
async function streamServer(options: StreamOptions) {
  const streams = eventStreams();
  const inFlight = inFlightRequests();
  const server = express()
    .get('/v1/events/stream', eventStreamHandler(app.deps, inFlight, streams, options))
    .listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    streams,
    async close() {
      streams.close();
      await new Promise((resolve) => server.close(resolve));
      await inFlight.settled();
    },
  };
}

/** The last message: the API's 401 body as an `error` event, with no `id` (the resume point stays). */
function expectRefusalMessage(stream: SseReader, message: string): { code: string; message: string; traceId?: string } {
  const last = stream.messages.at(-1);
  expect(last?.event).toBe('error');
  expect(last?.id).toBeUndefined();
  const body = JSON.parse(last?.data ?? '{}') as { code: string; message: string; traceId?: string };
  expect(body).toMatchObject({ code: 'UNAUTHENTICATED', message });
  return body;
}

/** A child world of a new parent, from a snapshot of one account. */
async function forkWorld(ttl: string): Promise<{ id: string; accessToken: string; parentToken: string }> {
  const parent = await app.createUser();
  await openAccount(app, parent);
  const snap = await app.call('POST', '/v1/sandbox/snapshots', { token: parent.accessToken, body: { name: 'base' } });
  expect(snap.status, JSON.stringify(snap.body)).toBe(201);
  const world = await app.call('POST', '/v1/worlds', { token: parent.accessToken, body: { snapshotId: snap.body.data.id, ttl } });
  expect(world.status, JSON.stringify(world.body)).toBe(201);
  const { id } = world.body.data.world as { id: string };
  return { id, accessToken: world.body.data.accessToken, parentToken: parent.accessToken };
}

describe('the end of the credential', () => {
  it('ends at the access token’s expiry with a last error message; a fresh token resumes with no gap', async () => {
    const owner = await app.createUser();
    const accountId = await openAccount(app, owner);
    // A two-second token of the same session, signed as the API signs its own.
    const { sessionId } = await verifyAccessToken(app.deps, owner.accessToken);
    const short = { ...app.deps, config: { ...app.deps.config, auth: { ...app.deps.config.auth, accessTokenTtlSeconds: 2 } } };
    const token = await signAccessToken(short, owner.id, sessionId);
    const { expiresAtMs } = await verifyAccessToken(app.deps, token);
    await simulate(app, owner, { accountId, amount: 100 });
    const first = await openStream(app.url, token); // the real app: its default re-check interval is longer than the token
    await waitUntil(() => first.eventIds().length >= 1, { what: 'the first event' });
    await first.ended;
    const endedAt = Date.now();
    expect(endedAt).toBeGreaterThanOrEqual(expiresAtMs);
    expect(endedAt).toBeLessThan(expiresAtMs + 1_000);
    // The app's error body, trace id included (the bare servers below have no request ids).
    expect(expectRefusalMessage(first, 'The access token has expired').traceId).toMatch(/\S/);
    const expired = await fetch(`${app.url}/v1/events/stream`, { headers: { authorization: `Bearer ${token}` } });
    expect(expired.status).toBe(401);

    await simulate(app, owner, { accountId, amount: 200 });
    const resumeAt = first.messages.filter((m) => m.id !== undefined).at(-1)?.id;
    const second = await openStream(app.url, owner.accessToken, resumeAt);
    const all = await visibleEvents(app, owner, 2);
    await waitUntil(() => first.eventIds().length + second.eventIds().length >= all.length, { what: 'every event' });
    await pause(300, 'nothing more may come: time for a duplicate to show');
    await second.cancel();
    expect([...first.eventIds(), ...second.eventIds()]).toEqual(all.map((event) => event.id));
  });

  it('ends within the re-check interval once its child world is removed, or its TTL passes', async () => {
    const server = await streamServer({ recheckMs: 100, pollMs: 20 });
    try {
      const removed = await forkWorld('PT1H');
      const expiring = await forkWorld('PT2S');
      const gone = await openStream(server.url, removed.accessToken);
      const ttl = await openStream(server.url, expiring.accessToken);
      await pause(300, 'the stream re-checks its world a few times while the worlds live');
      expect([gone.done(), ttl.done()]).toEqual([false, false]);

      const res = await app.call('DELETE', `/v1/worlds/${removed.id}`, { token: removed.parentToken });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const removedAt = Date.now();
      await gone.ended;
      expect(Date.now() - removedAt).toBeLessThan(1_000);
      expectRefusalMessage(gone, 'The world of this access token has been removed or has expired');

      await ttl.ended; // its token lives 15 minutes more; the world's TTL (wall time) ends it
      expectRefusalMessage(ttl, 'The world of this access token has been removed or has expired');
      await waitUntil(() => server.streams.size === 0, { what: 'both streams closed' });
    } finally {
      await server.close();
    }
  });

  it('keeps a healthy stream open across many re-checks, a user’s and a live world’s', async () => {
    const server = await streamServer({ recheckMs: 25, pollMs: 20, heartbeatMs: 100 });
    try {
      const owner = await app.createUser();
      const accountId = await openAccount(app, owner);
      const world = await forkWorld('PT1H');
      const worldAccount = (await app.call('GET', '/v1/accounts', { token: world.accessToken })).body.data[0].id as string;
      const streams = [await openStream(server.url, owner.accessToken), await openStream(server.url, world.accessToken)];
      await pause(1_000, 'some 40 re-checks each');
      await simulate(app, owner, { accountId, amount: 100 });
      await simulate(app, { accessToken: world.accessToken }, { accountId: worldAccount, amount: 100 });
      await waitUntil(() => streams.every((stream) => stream.eventIds().length >= 1), { what: 'an event on each stream' });
      for (const stream of streams) {
        expect(stream.done()).toBe(false);
        expect(stream.messages.filter((m) => m.event === 'error')).toEqual([]);
      }
      expect(server.streams.size).toBe(2);
      for (const stream of streams) await stream.cancel();
    } finally {
      await server.close();
    }
  });
});
