/**
 * Start-up failures of the real processes (issue 11): bad configuration, a port already taken, a
 * missing secret in production, an unreachable database — each is one line on stderr naming the
 * cause and the variable to change, exit code 1, and no stack trace.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const appsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const taken = createServer();
let takenPort = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  takenPort = (taken.address() as { port: number }).port;
});
afterAll(() => new Promise((resolve) => taken.close(resolve)));

function start(app: 'api' | 'worker', env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['src/main.ts'], {
      cwd: path.join(appsDir, app),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

const UNREACHABLE_DB = 'postgres://postgres@127.0.0.1:1/nowhere';

describe('start-up failures are one clear line', () => {
  const cases: [string, 'api' | 'worker', () => Record<string, string>, RegExp][] = [
    [
      'a bad PORT',
      'api',
      () => ({ PORT: 'eighty' }),
      /^sandbank api: cannot start: invalid configuration: PORT: .+ \(see \.env\.example\)$/,
    ],
    [
      'a port taken',
      'api',
      () => ({ PORT: String(takenPort), DATABASE_URL: UNREACHABLE_DB }),
      /port 127\.0\.0\.1:\d+ is already in use: .*set PORT/,
    ],
    [
      'no JWT_SECRET in production',
      'api',
      () => ({ NODE_ENV: 'production' }),
      /invalid configuration: .*JWT_SECRET: required in production/,
    ],
    [
      'an unreachable database',
      'api',
      () => ({ PORT: '0', DATABASE_URL: UNREACHABLE_DB }),
      /the database at DATABASE_URL cannot be used .*ECONNREFUSED.*: start PostgreSQL, fix DATABASE_URL/,
    ],
    [
      'a bad worker setting',
      'worker',
      () => ({ WORKER_CONCURRENCY: 'many' }),
      /^sandbank worker: cannot start: invalid configuration: WORKER_CONCURRENCY/,
    ],
    [
      'an unreachable database (worker)',
      'worker',
      () => ({ DATABASE_URL: UNREACHABLE_DB }),
      /^sandbank worker: cannot start: the database at DATABASE_URL/,
    ],
  ];
  it.each(cases)('%s', async (_name, app, env, expected) => {
    const { code, stderr } = await start(app, env());
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(expected);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
