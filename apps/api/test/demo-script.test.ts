/**
 * `pnpm demo` (scripts/demo.ts) as a newcomer runs it: it follows PORT, as `pnpm start` does, and
 * when nothing answers it says what to do in one line and exits non-zero, with no stack trace.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, freePort, type TestDatabase } from '@sandbank/testing';
import { afterAll, expect, it } from 'vitest';
import { type ApiProcess, startApiProcess } from './api-process.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Runs the demo to its end; its exit code and what it printed. */
function runDemo(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/demo.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const printed = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => {
    printed.stdout += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    printed.stderr += String(chunk);
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, ...printed })));
}

let database: TestDatabase | undefined;
let api: ApiProcess | undefined;
let worker: ChildProcess | undefined;
afterAll(async () => {
  worker?.kill('SIGKILL');
  await api?.stop(10_000);
  await database?.drop();
});

it('says in one line what to do when nothing answers at PORT, and exits non-zero', async () => {
  const port = await freePort(); // free: nothing listens there
  const { code, stdout, stderr } = await runDemo({ PORT: String(port) });
  expect(code).toBe(1);
  expect(stdout).toContain(`Sandbank at http://127.0.0.1:${port}`);
  expect(stderr).toBe(
    `No Sandbank answers at http://127.0.0.1:${port} — start it with \`npx -y pnpm@10 start\` (or set PORT or BASE_URL)\n`,
  );
});

it('runs the whole tour against a Sandbank on a non-default PORT', { timeout: 120_000 }, async () => {
  database = await createTestDatabase();
  const env = {
    DATABASE_URL: database.url,
    LOG_LEVEL: 'error',
    LOG_PRETTY: 'false',
    RATE_LIMIT_ENABLED: 'false',
    // The API and the worker run from different folders: one key, not each its own development key.
    WEBHOOK_ENCRYPTION_KEYS: `test1:${Buffer.alloc(32, 7).toString('base64')}`,
  };
  api = await startApiProcess(env);
  worker = spawn(process.execPath, ['apps/worker/src/main.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: 'ignore',
  });
  await api.ready();
  const port = new URL(api.baseUrl).port;
  expect(port).not.toBe('3000');
  const { code, stdout, stderr } = await runDemo({ PORT: port });
  expect({ code, stderr }, stdout).toEqual({ code: 0, stderr: '' });
  expect(stdout).toContain(`Sandbank at http://127.0.0.1:${port}`);
  expect(stdout).toContain('✔ demo complete');
});
