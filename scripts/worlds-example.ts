/**
 * `pnpm example:worlds`: the sample suite of examples/worlds-suite — a budgeting app's 20 tests, each
 * on its own disposable world, all at once — against a running Sandbank (SANDBANK_URL, default
 * http://127.0.0.1:3000), with the client as an app outside this repo gets it:
 *
 * 1. packs @sandbank/client (scripts/pack-client.ts) and installs the tarball into the example;
 * 2. without SANDBANK_API_KEY, registers a user for the run and creates its API key;
 * 3. runs the suite (`node --test`), prints how long it took, and exits with its status.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packClient } from './pack-client.ts';

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

const started = performance.now();
const tarball = await packClient();
execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--silent', tarball], {
  cwd: example,
  stdio: 'inherit',
});
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
