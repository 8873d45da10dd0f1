/**
 * Getting a database ready: pick the server (configured or embedded), apply our migrations and
 * graphile-worker's, and answer readiness checks.
 */

import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '@sandbank/config';
import { Logger, runMigrations } from 'graphile-worker';
import pg from 'pg';
import { type EmbeddedHandle, startEmbeddedPostgres } from './embedded.ts';
import { MIGRATION_NAMES } from './orm.ts';

/** Any constant works; it only has to be the same in every process that migrates (tests hold it to pause a start-up). */
export const MIGRATION_LOCK_ID = 0x5a4d_ba4c;

export interface DatabaseServer {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/** The configured server, or an embedded one started (or found running) in the data folder. */
export async function resolveDatabase(config: Config, log?: (message: string) => void): Promise<DatabaseServer> {
  if (config.database.url) {
    return { url: config.database.url, embedded: false, stop: async () => {} };
  }
  const handle: EmbeddedHandle = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.database.embeddedPort,
    database: 'sandbank',
    ...(log ? { log } : {}),
  });
  return { url: handle.url, embedded: true, stop: handle.stop };
}

/**
 * Applies pending migrations. MikroORM takes no lock of its own, so replicas starting together
 * serialise on an advisory lock held by a dedicated connection.
 */
export async function migrateDatabase(orm: MikroORM, url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await orm.migrator.up();
    await runMigrations({ connectionString: url, logger: new Logger(() => () => {}) });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    await client.end();
  }
}

export type Readiness = { ready: true } | { ready: false; reason: string };

/** Ready when the database answers and every migration we know of is applied. */
export async function checkReadiness(orm: MikroORM): Promise<Readiness> {
  try {
    const rows = await orm.em.getConnection().execute<{ name: string }[]>('select name from mikro_orm_migrations');
    const applied = new Set(rows.map((row) => row.name));
    if (!MIGRATION_NAMES.every((name) => applied.has(name))) return { ready: false, reason: 'migrations pending' };
    const [worker] = await orm.em
      .getConnection()
      .execute<{ ok: boolean }[]>(`select to_regclass('graphile_worker.jobs') is not null as ok`);
    if (!worker?.ok) return { ready: false, reason: 'job queue not migrated' };
    return { ready: true };
  } catch {
    return { ready: false, reason: 'database unavailable' };
  }
}
