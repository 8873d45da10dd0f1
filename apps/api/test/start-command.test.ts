/**
 * The README's run command as a newcomer runs it: `npx -y pnpm@10 start` in its own process group
 * (as a terminal runs it), on a non-default PORT and EMBEDDED_PG_PORT. It prints where the API, the
 * console and the docs are and no warnings or noise, and Ctrl-C (SIGINT to the whole group, as a
 * terminal sends it) stops everything with exit 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitUntil } from '@sandbank/testing';
import { afterAll, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dataDir = path.join(repoRoot, '.data', `test-start-${randomBytes(4).toString('hex')}`);
let child: ChildProcess | undefined;

afterAll(() => {
  if (child?.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
  // As root in a private folder the data lives elsewhere, named in a note beside the folder.
  const note = `${dataDir}.location`;
  const relocated = fs.existsSync(note) ? /lives in (\S+):/.exec(fs.readFileSync(note, 'utf8'))?.[1] : undefined;
  for (const dir of [dataDir, note, relocated]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('prints where everything is, no warnings, and exits 0 on Ctrl-C', { timeout: 180_000 }, async () => {
  const [port, pgPort] = [await freePort(), await freePort()];
  // A person's shell: no node_modules/.bin on PATH (pnpm puts them there for this test run).
  const userPath = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !dir.includes('node_modules'))
    .join(path.delimiter);
  child = spawn('npx', ['-y', 'pnpm@10', 'start'], {
    cwd: repoRoot,
    detached: true, // its own process group, as a terminal's foreground job
    env: {
      PATH: userPath,
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk) => {
    printed += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    printed += String(chunk);
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child?.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const url = `http://127.0.0.1:${port}`;
  await waitUntil(() => printed.includes(`docs: "${url}/docs"`) || child?.exitCode != null, {
    timeoutMs: 150_000,
    what: "the ready line with the docs' address",
  });
  expect(printed).toContain(`docs: "${url}/docs"`);
  expect(printed).toContain(`api: "${url}"`);
  expect(printed).toContain(`console: "${url}/console/"`);
  expect(printed).toContain(`embedded PostgreSQL on port ${pgPort}`);
  // The printed addresses answer.
  expect((await fetch(`${url}/console/`)).status).toBe(200);
  expect((await fetch(`${url}/docs`)).status).toBe(200);
  // No warnings (npm's, pnpm's, the logger's) and none of the noise a first run used to print.
  expect(printed).not.toMatch(/warn|Unsupported engine|telemetry|crontab|embedded(Database)?: (true|false)|scope: \{\}/i);

  if (!child.pid) throw new Error('npx did not start');
  process.kill(-child.pid, 'SIGINT');
  const { code, signal } = await exited;
  expect({ code, signal }, printed).toEqual({ code: 0, signal: null });
  expect(printed).toContain('stopped');
});
