/**
 * The `sandbank` CLI as someone outside this repository installs it: packed by pnpm (its `prepack`
 * bundles dist/sandbank.js), installed by npm into an empty folder, and run from there with the
 * machine's own `node` (whatever its version, ≥ 20.3): `--help`, a login against a running
 * Sandbank, and a command that uses the kept session.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';
import { packWorkspacePackage } from './pack.ts';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbank-cli-pack-'));
let app: TestApp;
let tarball: string;

beforeAll(async () => {
  app = await startTestApp();
  tarball = packWorkspacePackage('cli', folder);
}, 120_000);
afterAll(async () => {
  await app?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

it('installs from its tarball with no dependencies and runs: --help, login, clock show, mcp, logout', async () => {
  expect(fs.existsSync(tarball)).toBe(true);
  const project = path.join(folder, 'app');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'a-project', private: true }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', '--loglevel=error', tarball], {
    cwd: project,
    encoding: 'utf8',
  });
  const installed = JSON.parse(fs.readFileSync(path.join(project, 'node_modules', '@sandbank', 'cli', 'package.json'), 'utf8'));
  expect(installed.dependencies ?? {}).toEqual({});
  // The bin npm linked, run by the `node` on the PATH (not this test's Node 24).
  const bin = path.join(project, 'node_modules', '.bin', 'sandbank');
  const configDir = path.join(folder, 'config');
  const env = { PATH: process.env.PATH ?? '', HOME: folder, SANDBANK_CONFIG_DIR: configDir, NO_COLOR: '1' };
  const run = (args: string[], input?: string) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(bin, args, { env, encoding: 'utf8' }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end(input ?? '');
    });

  const help = await run(['--help']);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/listen/);

  const user = await app.createUser();
  const login = await run(['login', '--api-url', app.url, '--email', user.email, '--password-stdin', '--json'], user.password);
  expect(login.code, login.stderr).toBe(0);
  expect(JSON.parse(login.stdout).user.email).toBe(user.email);
  expect(fs.statSync(JSON.parse(login.stdout).sessionFile).mode & 0o777).toBe(0o600);

  const clock = await run(['clock', 'show', '--json']);
  expect(clock.code, clock.stderr).toBe(0);
  expect(JSON.parse(clock.stdout)).toMatchObject({ now: expect.any(String) });

  // `sandbank mcp` as an agent's config starts it: the installed bin on stdio, the SDK's client listing its tools.
  const mcp = new Client({ name: 'cli-package-test', version: '1.0.0' });
  await mcp.connect(new StdioClientTransport({ command: bin, args: ['mcp'], env, stderr: 'pipe' }));
  const { tools } = await mcp.listTools();
  expect(tools.map((tool) => tool.name)).toContain('accounts_createAccount');
  await mcp.close();

  // Exit codes a script can trust: after logout, 3 (not logged in).
  expect((await run(['logout'])).code).toBe(0);
  const loggedOut = await run(['clock', 'show']);
  expect(loggedOut.code).toBe(3);
}, 180_000);
