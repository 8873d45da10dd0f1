/**
 * The session `sandbank login` keeps, as the real CLI process uses it (`@sandbank/client`'s session):
 * an access token the API refuses is refreshed once and the rotated tokens are saved for the next
 * run; a spent refresh token ends the session with exit 3; and calls in flight together when the
 * access token has expired share one refresh (refresh tokens rotate, and a reused one revokes the
 * whole session), here through `sandbank mcp`, which relays an agent's concurrent messages.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { waitUntil } from '@sandbank/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliEnv, sandbank } from './cli-process.ts';
import { startTestApp, type TestApp } from './helpers.ts';
import { stdioClient } from './mcp-clients.ts';

interface Saved {
  apiUrl: string;
  email: string;
  accessToken: string;
  refreshToken: string;
}

let app: TestApp;
const dirs: string[] = [];
beforeAll(async () => {
  app = await startTestApp({ ACCESS_TOKEN_TTL_SECONDS: '2' });
});
afterAll(async () => {
  await app?.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function loggedIn(): Promise<{ env: Record<string, string>; file: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sandbank-cli-session-'));
  dirs.push(dir);
  const env = cliEnv(dir);
  const user = await app.createUser();
  const login = await sandbank(['login', '--api-url', app.url, '--email', user.email, '--password-stdin'], env, user.password);
  expect(login.code, login.stderr).toBe(0);
  return { env, file: path.join(dir, 'session.json') };
}

const readSaved = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Saved;
const writeSaved = (file: string, saved: Saved) => writeFile(file, JSON.stringify(saved), { mode: 0o600 });

it('refreshes a refused access token once, saves the rotated tokens, and ends a spent session with exit 3', async () => {
  const { env, file } = await loggedIn();
  const first = await readSaved(file);
  await writeSaved(file, { ...first, accessToken: 'not-a-token' });

  const shown = await sandbank(['clock', 'show', '--json'], env);
  expect(shown.code, shown.stderr).toBe(0);
  expect(JSON.parse(shown.stdout).now).toMatch(/^\d{4}-\d\d-\d\dT/);
  const rotated = await readSaved(file);
  expect(rotated).toMatchObject({ apiUrl: app.url, email: first.email });
  expect(rotated.accessToken).not.toBe('not-a-token');
  expect(rotated.refreshToken).not.toBe(first.refreshToken);

  // The next run starts from what the last one saved.
  await writeSaved(file, { ...rotated, accessToken: 'not-a-token' });
  const again = await sandbank(['clock', 'show', '--json'], env);
  expect(again.code, again.stderr).toBe(0);

  // The first refresh token was spent by the first refresh: the session is over.
  await writeSaved(file, { ...first, accessToken: 'not-a-token' });
  const spent = await sandbank(['clock', 'show', '--json'], env);
  expect(spent.code).toBe(3);
  expect(JSON.parse(spent.stdout).error.code).toBe('SESSION_EXPIRED');
});

it('sandbank mcp: messages relayed together after the access token expired share one refresh', { timeout: 60_000 }, async () => {
  const { env, file } = await loggedIn();
  const client = await stdioClient(env);
  try {
    await client.listTools();
    const { accessToken } = await readSaved(file);
    // The access token lives 2 s; wait until the API refuses it, so every relayed message below gets a 401.
    await waitUntil(async () => (await app.call('GET', '/v1/clock', { token: accessToken })).status === 401, {
      timeoutMs: 10_000,
      what: 'the saved access token to expire',
    });
    const answers = await Promise.all(Array.from({ length: 6 }, () => client.listTools()));
    for (const answer of answers) expect(answer.tools.length).toBeGreaterThan(0);
  } finally {
    await client.close();
  }
  // One refresh, not six: the refresh token was not reused, so the saved session still works.
  const shown = await sandbank(['clock', 'show', '--json'], env);
  expect(shown.code, shown.stderr).toBe(0);
});
