/**
 * The CLI's progress display (packages/cli/src/output.ts): a person at a terminal sees what a long
 * command waits for; a script (no terminal, or --json) sees only the result. The terminal is a real
 * pseudo-terminal: util-linux's `script` runs the CLI on one, as a shell would.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliEnv, sandbank } from './cli-process.ts';
import { startTestApp, type TestApp } from './helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const main = path.join(root, 'packages/cli/src/bin.ts');
const node = existsSync(path.join(root, 'node_modules/node/bin/node'))
  ? path.join(root, 'node_modules/node/bin/node')
  : process.execPath;

let app: TestApp;
let configDir: string;
let env: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  configDir = await mkdtemp(path.join(os.tmpdir(), 'sandbank-cli-progress-'));
  env = cliEnv(configDir);
  const user = await app.createUser();
  const login = await sandbank(['login', '--api-url', app.url, '--email', user.email, '--password-stdin'], env, user.password);
  expect(login.code, login.stderr).toBe(0);
});
afterAll(async () => {
  await app?.close();
  await rm(configDir, { recursive: true, force: true });
});

/** `sandbank …args` on a pseudo-terminal: stdout and stderr together, as the person sees them. */
async function atTerminal(args: string[]): Promise<string> {
  const command = [node, main, ...args].map((word) => `'${word}'`).join(' ');
  const { stdout } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], { env, encoding: 'utf8' });
  return stdout;
}

it('shows what a long command waits for at a terminal, and nothing of it to a script', async () => {
  const shown = await atTerminal(['clock', 'advance', 'P1D']);
  expect(shown).toContain('advancing the clock by P1D');
  expect(shown).toMatch(/Clock moved from/);

  const json = await atTerminal(['clock', 'advance', 'P1D', '--json']);
  expect(json).not.toContain('advancing the clock');
  expect(JSON.parse(json.trim())).toMatchObject({ fired: expect.any(Object) });

  const piped = await sandbank(['clock', 'advance', 'P1D'], env);
  expect(piped.code, piped.stderr).toBe(0);
  expect(piped.stdout + piped.stderr).not.toContain('advancing the clock');
  expect(piped.stdout).toMatch(/^Clock moved from/);
});
