/** MikroORM for PostgreSQL: one ORM per process; fork its EntityManager per request and per job. */
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { defaultLockSlots, type LockSlots, setLockSlots } from './advisory-lock.ts';
import { entities } from './entities/index.ts';
import { migrations } from './migrations/index.ts';

export type { EntityManager } from '@mikro-orm/postgresql';
export type Orm = MikroORM;

export interface OrmOptions {
  url: string;
  poolSize?: number;
  /** How many world locks this process holds at once (advisory-lock.ts); unset: a quarter of the pool, two per family. */
  lockSlots?: Partial<LockSlots>;
}

/**
 * Settings of every pooled session:
 * - `plan_cache_mode=force_generic_plan`: the hot statements are named prepared statements
 *   (`executeHot`) so that PostgreSQL plans them once per connection. But for a statement with
 *   range parameters (the pull's window, the history's bounds) the planner kept choosing a custom
 *   plan, made again on every call: 0.4 ms of planning for a 0.2 ms execution. Their generic plans
 *   are the same index scans (each statement has one obvious index).
 * - `TimeZone=UTC`: no statement depends on the session's zone, but timestamps then arrive as
 *   `…+00`, which `isoTimestamp` rewrites as ISO strings without parsing a Date.
 */
const SESSION_OPTIONS = '-c plan_cache_mode=force_generic_plan -c TimeZone=UTC';

export async function createOrm({ url, poolSize = 10, lockSlots }: OrmOptions): Promise<MikroORM> {
  const orm = await MikroORM.init({
    clientUrl: url,
    entities,
    extensions: [Migrator],
    migrations: {
      migrationsList: migrations,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      silent: true,
      snapshot: false,
    },
    pool: { min: 0, max: poolSize },
    driverOptions: { options: SESSION_OPTIONS },
    // How entities map dates; raw rows (`em.execute`, the native pool) get PostgreSQL's timestamp text
    // either way (MikroORM's type parsers), which the mappers rewrite with `isoTimestamp`.
    forceUtcTimezone: true,
    debug: false,
  });
  setLockSlots(await nativePool(orm), { ...defaultLockSlots(poolSize), ...lockSlots });
  return orm;
}

export interface ReadOrmOptions {
  url: string;
  poolSize?: number;
  /** How long a new connection may take: a replica that is down must not hold a read for long. */
  connectTimeoutMs?: number;
}

/**
 * An ORM on a streaming replica (`DATABASE_READ_URL`): the same entities and session settings, no
 * migrations (a replica is read-only; the primary's migrations reach it by replication), and its
 * sessions named `sandbank-read` in `pg_stat_activity`.
 */
export async function createReadOrm({ url, poolSize = 10, connectTimeoutMs = 2_000 }: ReadOrmOptions): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl: url,
    entities,
    pool: { min: 0, max: poolSize },
    driverOptions: {
      options: `${SESSION_OPTIONS} -c default_transaction_read_only=on`,
      application_name: 'sandbank-read',
      connectionTimeoutMillis: connectTimeoutMs,
    },
    forceUtcTimezone: true,
    debug: false,
  });
}

/** The `pg.Pool` under the ORM: for the few hot-path statements written by hand. */
export async function nativePool(orm: MikroORM): Promise<pg.Pool> {
  return orm.em.getConnection().getNativeClient();
}

export const MIGRATION_NAMES = migrations.map((migration) => migration.name);
