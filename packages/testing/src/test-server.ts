/**
 * Which port the test PostgreSQL uses. Every clone and worktree on a machine shares one test
 * server on port 54339 on purpose (each run works in its own template and databases); but a
 * PostgreSQL of someone else's on that port must never receive our test databases. So the default
 * port is used when it is free or when what listens there is a Sandbank test server (it holds the
 * marker database, or its data folder is a clone's `.data/test/pg`); otherwise this clone's own
 * server, if one runs on another port, or a free port. TEST_PG_PORT names a port and is used as it is.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { embeddedServerUrl } from '@sandbank/db';
import pg from 'pg';
import { freePort } from './index.ts';

export const DEFAULT_TEST_PG_PORT = 54339;
/** The database that marks a PostgreSQL as a Sandbank test server. */
export const TEST_SERVER_MARKER = 'sandbank_test_server';

type Probe = 'free' | 'ours' | 'other';

/** What listens on `port`: nothing, a Sandbank test server, or something else. */
export async function probeTestServer(port: number): Promise<Probe> {
  if (!(await isListening(port))) return 'free';
  const client = new pg.Client({ connectionString: embeddedServerUrl(port, 'postgres'), connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ marked: boolean; data_directory: string }>(
      `select exists (select 1 from pg_database where datname = $1) as marked, current_setting('data_directory') as data_directory`,
      [TEST_SERVER_MARKER],
    );
    const row = rows[0];
    // A test server started before the marker existed is known by its data folder.
    return row && (row.marked || row.data_directory.endsWith(`${path.sep}.data${path.sep}test${path.sep}pg`)) ? 'ours' : 'other';
  } catch {
    return 'other'; // not PostgreSQL, or not one our credentials open
  } finally {
    await client.end().catch(() => {});
  }
}

/** The port for this run's test server (`dataDir` is this clone's test data folder). */
export async function chooseTestServerPort(
  dataDir: string,
  { requested = process.env.TEST_PG_PORT, defaultPort = DEFAULT_TEST_PG_PORT }: { requested?: string; defaultPort?: number } = {},
): Promise<number> {
  if (requested) return Number(requested);
  if ((await probeTestServer(defaultPort)) !== 'other') return defaultPort;
  // This clone's server may already run elsewhere (a run that met the default port taken).
  const running = runningPort(dataDir);
  if (running && (await probeTestServer(running)) === 'ours') return running;
  return freePort();
}

/** Marks the server as a Sandbank test server, for the runs of other clones that find it. */
export async function markTestServer(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => {}); // a failure reaches the query; the event alone must not crash the run
  await client.connect();
  try {
    await client.query(`create database ${TEST_SERVER_MARKER}`).catch((error: { code?: string }) => {
      if (error.code !== '42P04') throw error; // already marked
    });
  } finally {
    await client.end();
  }
}

/** The port in the data folder's postmaster.pid (its 4th line); the folder may have been relocated (a note says where). */
function runningPort(dataDir: string): number | undefined {
  const pgDir = path.join(dataDir, 'pg');
  const relocated = /lives in (\S+):/.exec(readText(`${pgDir}.location`) ?? '')?.[1];
  const port = Number(readText(path.join(relocated ?? pgDir, 'postmaster.pid'))?.split('\n')[3]);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
