/**
 * `pnpm example:worlds`: the sample suite of examples/worlds-suite — a budgeting app's 20 tests, each
 * on its own disposable world, all at once — against a running Sandbank (SANDBANK_URL, default
 * http://127.0.0.1:3000), with the client as an app outside this repo gets it:
 *
 * 1. packs @sandbank/client (`pnpm pack`: its prepack builds dist/) and installs the tarball into the
 *    example with npm (its one dependency, openapi-fetch, from the registry), as an app would;
 * 2. without SANDBANK_API_KEY, registers a user for the run and creates its API key;
 * 3. runs the suite (`node --test`), prints how long it took, and exits with its status.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const example = path.join(root, 'examples/worlds-suite');
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
execFileSync(
  'npm',
  ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball],
  {
    cwd: example,
    stdio: 'inherit',
  },
);
let apiKey = process.env.SANDBANK_API_KEY;
if (!apiKey) {
  const email = `worlds-suite.${crypto.randomUUID()}@example.com`;
  const { accessToken } = await call<{ accessToken: string }>('/v1/auth/register', { email, password: 'worlds-suite-password' });
  apiKey = (await call<{ key: string }>('/v1/api-keys', { name: 'worlds-suite' }, accessToken)).key;
}
const prepared = performance.now();
const run = spawnSync(process.execPath, ['--test', 'test/*.test.ts'], {
  cwd: example,
  stdio: 'inherit',
  env: { ...process.env, SANDBANK_URL: baseUrl, SANDBANK_API_KEY: apiKey },
});
const ended = performance.now();
console.log(
  `worlds suite: ${run.status === 0 ? 'passed' : 'FAILED'} in ${((ended - prepared) / 1000).toFixed(1)} s ` +
    `(packing, installing and a user before it: ${((prepared - started) / 1000).toFixed(1)} s)`,
);
process.exit(run.status ?? 1);
