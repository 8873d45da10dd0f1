/**
 * The API process. It listens first, with a tiny handler that already answers `/healthz` (a cold
 * start is what wakes a sleeping instance), then loads the app, connects to the database and
 * applies migrations; `/readyz` turns 200 when all of that is done.
 */
import { createServer } from 'node:http';
import { enableCompileCache } from 'node:module';
import { createLogger, failStartup, loadConfig } from '@sandbank/config';
import { bootingHandler } from './http/booting.ts';

// V8's code cache on disk for everything loaded below: a restart compiles (and strips types) far less.
enableCompileCache();

const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    return failStartup('sandbank api', error);
  }
})();
const logger = createLogger(config, 'api');
const server = createServer(bootingHandler);
// Listening fails before anything else runs (a port taken, no permission): one line, exit 1.
server.once('error', (error) => failStartup('sandbank api', error));
server.keepAliveTimeout = 65_000;
/** Where to reach the API from this machine (a wildcard address is reached as localhost). */
const localUrl = (() => {
  const { host, port } = config.http;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
})();
server.listen(config.http.port, config.http.host, () => {
  logger.info({ url: localUrl }, 'api listening');
  // Loading the app keeps the event loop busy for a few hundred milliseconds; give the request
  // that woke a sleeping instance (usually `/healthz`) a moment to be answered first.
  setTimeout(() => {
    main().catch((error: unknown) => {
      // Stopped mid start-up (e.g. while migrating): closing the database failed the start; that is
      // the stop asked for, not a reason to report that the API cannot start.
      if (stopping) return;
      failStartup('sandbank api', error);
    });
  }, 20);
});

/** How long shutdown waits for the database pool to close. */
const ORM_CLOSE_MS = 5_000;

/**
 * What start-up has opened so far; shutdown closes whatever is there, whenever the signal comes.
 * `settled` waits for the request handlers still running (some may have lost their client).
 */
const opened: { settled?: () => Promise<void>; close?: () => Promise<void>; streams?: { close(): void; readonly size: number } } =
  {};
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'api stopping');
  // Stop accepting, let requests in flight finish (bounded), then close the database. The server's
  // close waits for open connections; a handler whose client has gone still runs after its socket
  // closed, hence `settled`.
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  opened.streams?.close(); // event streams never end on their own
  server.closeIdleConnections();
  const finished = drained.then(() => opened.settled?.());
  await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
  await opened.close?.();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

async function main(): Promise<void> {
  // One after the other: loaded concurrently, CommonJS `pg` (reached from both graphs) was now and
  // then seen half-initialised ("Cannot read properties of undefined (reading 'Client')"), seen twice
  // in `pnpm bench`'s cold starts.
  const { createOrm, createReadOrm, migrateDatabase, resolveDatabase } = await import('@sandbank/db');
  const { ReadRouting } = await import('@sandbank/core');
  const { resolveSecrets } = await import('@sandbank/config');
  const { buildApp } = await import('./app.ts');
  const { inFlightRequests } = await import('./http/in-flight.ts');
  const { eventStreams } = await import('./http/event-stream.ts');
  const database = await resolveDatabase(config, (message) => logger.warn({ message }, 'embedded postgres'));
  opened.close = database.stop;
  const { poolSize, lockSlots } = config.database;
  const orm = await createOrm({ url: database.url, poolSize, lockSlots });
  // The read-only paths' replica (DATABASE_READ_URL), when there is one.
  const read = config.database.read;
  const readOrm = read ? await createReadOrm({ url: read.url, poolSize: read.poolSize }) : undefined;
  const readRouting =
    read && readOrm
      ? new ReadRouting({ primary: orm, replica: readOrm, maxLagMs: read.maxLagMs, waitMs: read.waitMs })
      : undefined;
  opened.close = async () => {
    // A stop that comes while the migrations still run finds one of the pool's connections checked
    // out for them, and closing the pool would wait for it forever: bounded, the database still stops.
    const closing = Promise.all([orm.close(), readOrm?.close()]);
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, ORM_CLOSE_MS).unref())]);
    await database.stop();
  };
  const inFlight = inFlightRequests();
  opened.settled = inFlight.settled;
  let migrated = false;
  opened.streams = eventStreams();
  const app = buildApp(
    { config, secrets: resolveSecrets(config), orm, logger, ...(readRouting ? { readRouting } : {}) },
    { inFlight, starting: () => !migrated, eventStreams: opened.streams },
  );
  server.removeListener('request', bootingHandler);
  server.on('request', app);
  await migrateDatabase(orm, database.url);
  migrated = true;
  // What a person starting it needs next: where the API, the console and the reference are.
  logger.info({ api: localUrl, console: `${localUrl}/console/`, docs: `${localUrl}/docs` }, 'ready');
}
