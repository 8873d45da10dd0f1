/**
 * Builds the web console (apps/console → apps/console/dist, served by the API at /console) when
 * its sources changed since the last build, so `pnpm install` and `pnpm start` give a fresh
 * machine a working console with no extra step and a second start costs nothing.
 * "Changed" is a SHA-256 over the console's sources, the browser half of @sandbank/client and
 * the lockfile, stored beside the build. Without Vite (a production-only install) it says so
 * and leaves the build to the image's own stage.
 *
 * Run directly (`node scripts/build-console.ts`, the root `postinstall`) or import `buildConsole`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceHash } from './source-hash.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const consoleDir = path.join(root, 'apps/console');
const dist = path.join(consoleDir, 'dist');
const stamp = path.join(dist, '.source-hash');
const SOURCES = [
  'apps/console/src',
  'apps/console/public',
  'apps/console/index.html',
  'apps/console/vite.config.ts',
  'apps/console/package.json',
  'packages/client/src/browser.ts',
  'packages/client/src/session.ts',
  'packages/client/src/trpc.ts',
  'examples/scenarios',
  'pnpm-lock.yaml',
];

export function buildConsole(log: (message: string) => void = console.log): 'fresh' | 'built' | 'no-vite' {
  const hash = sourceHash(root, SOURCES);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(path.join(dist, 'index.html'))) return 'fresh';
  const vite = path.join(consoleDir, 'node_modules/vite/bin/vite.js');
  if (!existsSync(vite)) {
    log('console: Vite is not installed (production-only install?); /console stays unbuilt');
    return 'no-vite';
  }
  log('console: building apps/console (sources changed)…');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: consoleDir, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`console build failed (exit ${result.status})`);
  writeFileSync(stamp, hash);
  return 'built';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outcome = buildConsole();
  if (outcome === 'fresh') console.log('console: build is up to date');
}
