/**
 * Test databases: a real PostgreSQL (embedded by default, or TEST_DATABASE_URL), one database
 * per test file, cloned from a template that the global setup migrated once.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    sandbankTemplateUrl: string;
  }
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const templateUrl = new URL(inject('sandbankTemplateUrl'));
  const template = templateUrl.pathname.slice(1);
  // Named after the template, so the global teardown drops only this run's databases.
  const name = `${template.replace('_template_', '_test_')}_${randomBytes(4).toString('hex')}`;
  const adminUrl = withDatabase(templateUrl, 'postgres');
  await withClient(adminUrl, (client) => client.query(`create database "${name}" template "${template}"`));
  return {
    url: withDatabase(templateUrl, name),
    name,
    drop: () => withClient(adminUrl, (client) => dropWhenIdle(client, name)),
  };
}

/**
 * Drops a test database once the pools that used it have finished closing (up to 2 s), then by
 * force. Forcing at once kills backends whose clients are still saying goodbye, and a pool that
 * has already let go of such a client reports the termination as an unhandled error.
 */
async function dropWhenIdle(client: pg.Client, name: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [
      name,
    ]);
    if (rows[0]?.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await client.query(`drop database if exists "${name}" with (force)`);
}

export function withDatabase(url: URL | string, database: string): string {
  const copy = new URL(url);
  copy.pathname = `/${database}`;
  return copy.toString();
}

export async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago, for a server a test starts itself. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
export { pause, type WaitOptions, waitUntil } from './wait-until.ts';
