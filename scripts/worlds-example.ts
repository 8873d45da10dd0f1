/**
 * `pnpm example:worlds`: the sample suites — a budgeting app's 20 tests, each on its own disposable
 * world, all at once — under `node:test` (examples/worlds-suite) and jest (examples/worlds-suite-jest),
 * against a running Sandbank (SANDBANK_URL, default http://127.0.0.1:3000), with the client as an app
 * outside this repo gets it. `pnpm example:worlds jest` (or `node`) runs one of them.
 *
 * 1. packs @sandbank/client (`pnpm pack`: its prepack builds dist/) and installs the tarball into each
 *    example with npm (with the example's own dev dependencies — jest's — from the registry), as an app would;
 * 2. without SANDBANK_API_KEY, registers a user for the run and creates its API key;
 * 3. runs each suite, prints how long its install and its run took, and exits non-zero if one failed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Each suite: its folder and how it runs (with this Node). */
const SUITES = {
  node: { folder: 'examples/worlds-suite', args: ['--test', 'test/*.test.ts'] },
  jest: {
    folder: 'examples/worlds-suite-jest',
    args: ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', 'node_modules/jest/bin/jest.js'],
  },
};
type SuiteName = keyof typeof SUITES;
const asked = process.argv.slice(2).filter((name): name is SuiteName => name in SUITES);
const suites = asked.length > 0 ? asked : (Object.keys(SUITES) as SuiteName[]);
const baseUrl = (process.env.SANDBANK_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');

async function call<T>(route: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(baseUrl + route, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`POST ${route} → ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** The client's tarball, packed by pnpm as it would be published. */
function packClient(): string {
  const folder = path.join(root, '.data/packs');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  // pnpm as this script was started by it (`pnpm example:worlds`), or the one the README names.
  const execPath = process.env.npm_execpath;
  const [command, prefix] = execPath && /pnpm/.test(execPath) ? [process.execPath, [execPath]] : ['npx', ['-y', 'pnpm@10']];
  execFileSync(command, [...prefix, 'pack', '--pack-destination', folder], {
    cwd: path.join(root, 'packages/client'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarball = readdirSync(folder).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error('pnpm pack wrote no tarball');
  return path.join(folder, tarball);
}

const started = performance.now();
const tarball = packClient();
let apiKey = process.env.SANDBANK_API_KEY;
if (!apiKey) {
  const email = `worlds-suite.${crypto.randomUUID()}@example.com`;
  const { accessToken } = await call<{ accessToken: string }>('/v1/auth/register', { email, password: 'worlds-suite-password' });
  apiKey = (await call<{ key: string }>('/v1/api-keys', { name: 'worlds-suite' }, accessToken)).key;
}
console.log(`packed the client and made a user in ${seconds(performance.now() - started)}`);

let failed = false;
for (const name of suites) {
  const { folder, args } = SUITES[name];
  const cwd = path.join(root, folder);
  const installing = performance.now();
  npmInstall(cwd, tarball);
  const running = performance.now();
  const run = spawnSync(process.execPath, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, SANDBANK_URL: baseUrl, SANDBANK_API_KEY: apiKey },
  });
  const ended = performance.now();
  failed ||= run.status !== 0;
  console.log(
    `worlds suite (${name}): ${run.status === 0 ? 'passed' : 'FAILED'} in ${seconds(ended - running)} ` +
      `(installing it: ${seconds(running - installing)})`,
  );
}
process.exit(failed ? 1 : 0);

/** The suite's packages and the packed client; three tries, 10 s apart (a registry can fail for a moment). */
function npmInstall(cwd: string, client: string): void {
  const args = ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync('npm', [...args, client], { cwd, stdio: 'inherit' });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      console.log(`npm install failed (try ${attempt} of 3); trying again in 10 s`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
    }
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
