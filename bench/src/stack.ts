/**
 * The system under test: a PostgreSQL (embedded, or BENCH_DATABASE_URL's server), a fresh
 * migrated database, and the API and worker as separate production processes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '@sandbank/config';
import { createOrm, migrateDatabase, startEmbeddedPostgres } from '@sandbank/db';
import { withClient, withDatabase } from '@sandbank/testing';
import { buildServer, bundlePath } from '../../scripts/build-server.ts';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * What the bench runs, as `pnpm start` does: the production bundles (built now when the sources
 * changed); with BENCH_SOURCES=1, or when they cannot be built, the TypeScript sources.
 */
/** The read floor (`read-floor.ts`): the history's first page by a hand-written node:http + pg server. */
export const READ_FLOOR_ENTRY = 'bench/src/read-floor.ts';
/** The write floor for own-account transfers (write-floor.ts). */
export const WRITE_FLOOR_ENTRY = 'bench/src/write-floor.ts';

export const APP_ENTRY = await (async () => {
  const sources = { api: 'apps/api/src/main.ts', worker: 'apps/worker/src/main.ts' };
  if (process.env.BENCH_SOURCES === '1') return sources;
  const outcome = await buildServer();
  return outcome === 'no-esbuild' ? sources : { api: bundlePath('api'), worker: bundlePath('worker') };
})();

export interface Server {
  /** URL of the server's `postgres` database. */
  adminUrl: string;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<Server> {
  const given = process.env.BENCH_DATABASE_URL;
  if (given) return { adminUrl: withDatabase(given, 'postgres'), stop: async () => {} };
  // Stopped by a signal (a timeout's SIGTERM), the bench exits through process.exit, so the
  // embedded server's exit handler stops the server too; an unhandled signal would skip it.
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.once(signal, () => process.exit(code));
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: path.join(root, '.data/bench'),
    port: Number(process.env.BENCH_PG_PORT ?? 54359),
    database: 'postgres',
  });
  return { adminUrl: embedded.url, stop: embedded.stop };
}

/** Drops and recreates `name`, then applies every migration. */
export async function freshDatabase(server: Server, name: string, migrate = true): Promise<string> {
  await withClient(server.adminUrl, async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
  const url = withDatabase(server.adminUrl, name);
  if (migrate) {
    const orm = await createOrm({ url, poolSize: 2 });
    await migrateDatabase(orm, url);
    await orm.close();
  }
  return url;
}

export const BENCH_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  LOG_PRETTY: 'false',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-42',
  WEBHOOK_ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 9).toString('base64')}`,
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  RATE_LIMIT_ENABLED: 'false',
};

export interface Proc {
  child: ChildProcess;
  /** Peak resident set size so far, in MiB (VmHWM). */
  peakRssMiB(): number;
  stop(): Promise<void>;
}

/**
 * Starts `entry` with the Node flags and environment of `pnpm start` and the Dockerfile (or
 * `nodeFlags`): the worker's flags for an entry under a `worker` path, the API's otherwise.
 */
export function spawnApp(
  entry: string,
  env: Record<string, string>,
  nodeFlags: readonly string[] = entry.includes('worker') ? SERVER_NODE_FLAGS.worker : SERVER_NODE_FLAGS.api,
  /** Where its stdout and stderr go: this process's (the default) or an open file descriptor. */
  output: 'inherit' | number = 'inherit',
): Proc {
  // The running binary itself, never through a shell wrapper (one does not pass SIGTERM on, so
  // stop() would orphan the process).
  const child = spawn(process.execPath, [...nodeFlags, path.resolve(root, entry)], {
    cwd: root,
    env: { ...SERVER_ENV, ...process.env, ...BENCH_ENV, ...env },
    stdio: ['ignore', output, output],
  });
  return {
    child,
    peakRssMiB() {
      try {
        const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kib = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        return Math.round(kib / 1024);
      } catch {
        return 0;
      }
    },
    stop() {
      // Already gone (exited, or killed by a signal: then exitCode stays null and 'exit' has fired).
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      // A process that has not exited STOP_GRACE_MS after SIGTERM is killed: a stop never hangs its caller
      // (seen once: the cluster drill's worker, after a failover, did not finish its shutdown).
      return new Promise((resolve) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      });
    },
  };
}

/** How long a stopped process may take to exit after SIGTERM before it is killed. */
const STOP_GRACE_MS = 20_000;

/** Polls `url` until it answers 200; returns the milliseconds since `since`. */
export async function waitFor200(url: string, since: number, timeoutMs = 60_000): Promise<number> {
  for (;;) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (performance.now() - since > timeoutMs) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
