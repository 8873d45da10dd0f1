/**
 * The console's event log (src/lib/follow-events.ts) against the real API with two-second access
 * tokens: the API ends the stream at each expiry, and the follower opens it again at once through the
 * session's fetch (which refreshes the token on the 401), from the last event's id, so every event
 * arrives exactly once. Its retry wait is a minute, so a reconnection that waited would fail the test.
 */
import { startTestApp, type TestApp } from '@sandbank/api/test-helpers';
import { createSession } from '@sandbank/client';
import { pause, waitUntil } from '@sandbank/testing';
import { insertAccount, insertTransactionEvent } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followEvents } from '../src/lib/follow-events.ts';
import type { EventItem } from '../src/lib/types.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ LOG_LEVEL: 'silent', ACCESS_TOKEN_TTL_SECONDS: '2' });
});
afterAll(async () => {
  await app?.close();
});

describe('following the event stream', () => {
  it('reopens the stream at once with a fresh token at each expiry, missing and repeating nothing', async () => {
    const user = await app.createUser();
    let refreshes = 0;
    const session = createSession({
      baseUrl: app.url,
      tokens: { accessToken: user.accessToken, refreshToken: user.refreshToken },
      onTokens: (tokens) => {
        if (tokens) refreshes++;
      },
    });
    const received: EventItem[] = [];
    const errors: unknown[] = [];
    const controller = new AbortController();
    const following = followEvents({
      // The page's relative URLs, against the test's API.
      fetch: (input, init) => session.fetch(new URL(String(input), app.url), init),
      type: undefined,
      signal: controller.signal,
      retryMs: 60_000,
      onEvents: (events) => received.push(...events),
      onState: (error) => {
        if (error !== undefined) errors.push(error);
      },
    });
    // Events written straight into the log over three tokens' lifetimes.
    const accountId = await insertAccount(app.db, user.id);
    for (let i = 0; i < 24; i++) {
      await insertTransactionEvent(app.db, { accountId, amount: 100 + i });
      await pause(250, "events spread over three access tokens' lifetimes");
    }
    const { rows } = await app.db.query<{ id: string }>('select id from events where user_id = $1', [user.id]);
    await waitUntil(() => received.length >= rows.length, { timeoutMs: 10_000, what: 'every event' });
    controller.abort();
    await following;
    expect(received.map((event) => event.id).sort()).toEqual(rows.map((row) => row.id).sort());
    expect(errors).toEqual([]);
    expect(refreshes).toBeGreaterThanOrEqual(2);
  });
});
