/**
 * The API as its own process, from its sources (`src/main.ts`), for tests of what only a real
 * process shows: start-up, signals, exit codes and what it prints.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitUntil } from '@sandbank/testing';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ApiProcess {
  child: ChildProcess;
  baseUrl: string;
  /** What it has printed so far on stdout (the JSON log) and stderr. */
  stdout(): string;
  stderr(): string;
  /** Resolves once `/readyz` answers 200. */
  ready(): Promise<void>;
  /** Sends SIGTERM; the exit code, or 'hung' (then SIGKILL) when it has not exited within `timeoutMs`. */
  stop(timeoutMs: number): Promise<number | null | 'hung'>;
}

export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: apiDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const printed = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk) => {
    printed.stdout += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    printed.stderr += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    baseUrl,
    stdout: () => printed.stdout,
    stderr: () => printed.stderr,
    async ready() {
      await waitUntil(
        () =>
          fetch(`${baseUrl}/readyz`).then(
            (res) => res.status === 200,
            () => false,
          ),
        { timeoutMs: 60_000, intervalMs: 5, what: 'the API process ready' },
      );
    },
    async stop(timeoutMs) {
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), timeoutMs))]);
      if (code === 'hung') child.kill('SIGKILL');
      return code;
    },
  };
}
