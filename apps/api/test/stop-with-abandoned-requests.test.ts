/**
 * A stop while requests run whose clients have already gone (the end of a load, a proxy timing
 * out): their sockets are closed, so the HTTP server no longer waits for them, but their handlers
 * still run. The database pool must outlive them: the process ends with exit code 0 and no request
 * fails on a closed pool ("Cannot use a pool after calling end" was logged as a failed procedure).
 */
import { createTestDatabase, pause, type TestDatabase } from '@sandbank/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApiProcess } from './api-process.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function post<T>(url: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

it('lets handlers whose clients left finish before it closes the database', { timeout: 90_000 }, async () => {
  // Timing-dependent (before the fix: failed pulls in every try seen): several tries.
  for (let attempt = 0; attempt < 3; attempt++) {
    const api = await startApiProcess({
      LOG_LEVEL: 'error',
      LOG_PRETTY: 'false',
      RATE_LIMIT_ENABLED: 'false',
      DATABASE_URL: database.url,
    });
    await api.ready();
    const { baseUrl } = api;
    const email = `stop.${attempt}.${baseUrl.split(':').pop()}@example.com`;

    const auth = await post<{ accessToken: string }>(`${baseUrl}/v1/auth/register`, {
      email,
      password: 'stop-password-1',
    });
    const { key } = await post<{ key: string }>(`${baseUrl}/v1/api-keys`, { name: 'stop' }, auth.accessToken);

    // The pull takes two statements (the key, then the page): many in flight, then every client
    // leaves, then the stop.
    const abort = new AbortController();
    const pulls = Array.from({ length: 64 }, () =>
      fetch(`${baseUrl}/api/owner/${encodeURIComponent(email)}/transactions`, {
        headers: { authorization: `Bearer ${key}` },
        signal: abort.signal,
      }).catch(() => undefined),
    );
    await pause(15, 'the pulls are in flight (sent, not answered) when their clients go away');
    abort.abort();
    await Promise.all(pulls);
    const code = await api.stop(15_000);
    expect(code, `attempt ${attempt}`).toBe(0);
    const failures = `${api.stdout()}${api.stderr()}`
      .split('\n')
      .filter((line) => /Cannot use a pool|procedure failed/.test(line));
    expect(failures.length, `attempt ${attempt}: ${failures[0]?.slice(0, 300)}`).toBe(0);
  }
});
