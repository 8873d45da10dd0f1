/**
 * A stop while requests run whose clients have already gone (the end of a load, a proxy timing
 * out): their sockets are closed, so the HTTP server no longer waits for them, but their handlers
 * still run. The database pool must outlive them: the process ends with exit code 0 and no request
 * fails on a closed pool ("Cannot use a pool after calling end" was logged as a failed procedure).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, freePort, type TestDatabase } from '@sandbank/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
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
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['src/main.ts'], {
      cwd: apiDir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        LOG_LEVEL: 'error',
        LOG_PRETTY: 'false',
        RATE_LIMIT_ENABLED: 'false',
        DATABASE_URL: database.url,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: unknown) => {
      output += String(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    for (;;) {
      const ready = await fetch(`${baseUrl}/readyz`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const auth = await post<{ accessToken: string }>(`${baseUrl}/v1/auth/register`, {
      email: `stop.${attempt}.${port}@example.com`,
      password: 'stop-password-1',
    });
    const { key } = await post<{ key: string }>(`${baseUrl}/v1/api-keys`, { name: 'stop' }, auth.accessToken);
    const email = encodeURIComponent(`stop.${attempt}.${port}@example.com`);

    // The pull takes two statements (the key, then the page): many in flight, then every client
    // leaves, then the stop.
    const abort = new AbortController();
    const pulls = Array.from({ length: 64 }, () =>
      fetch(`${baseUrl}/api/owner/${email}/transactions`, {
        headers: { authorization: `Bearer ${key}` },
        signal: abort.signal,
      }).catch(() => undefined),
    );
    await new Promise((resolve) => setTimeout(resolve, 15));
    abort.abort();
    await Promise.all(pulls);
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 15_000))]);
    if (code === 'hung') child.kill('SIGKILL');
    expect(code, `attempt ${attempt}`).toBe(0);
    const failures = output.split('\n').filter((line) => /Cannot use a pool|procedure failed/.test(line));
    expect(failures.length, `attempt ${attempt}: ${failures[0]?.slice(0, 300)}`).toBe(0);
  }
});
