/**
 * A real API process on the test app's database, to be SIGKILLed mid-work (the crash tests: an advance,
 * a clearing session). Its logs are silent; `kill()` is safe to call twice and after it exited.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitUntil } from '@sandbank/testing';
import type { TestApp } from './helpers.ts';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface KillableApi {
  url: string;
  /** Resolves when the process has ended. */
  exited: Promise<unknown>;
  kill(): void;
}

export async function startKillableApi(app: TestApp): Promise<KillableApi> {
  const port = await freePort();
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: apiDir,
    env: { ...process.env, ...app.env, PORT: String(port), LOG_LEVEL: 'silent', LOG_PRETTY: 'false' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    () =>
      fetch(`${url}/readyz`).then(
        (res) => res.ok,
        () => false,
      ),
    { timeoutMs: 15_000, intervalMs: 50, what: 'the API process ready' },
  );
  return { url, exited, kill: () => child.kill('SIGKILL') };
}
