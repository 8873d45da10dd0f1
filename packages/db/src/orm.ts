/** MikroORM for PostgreSQL: one ORM per process; fork its EntityManager per request and per job. */
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { entities } from './entities/index.ts';
import { migrations } from './migrations/index.ts';

export type { EntityManager } from '@mikro-orm/postgresql';
export type Orm = MikroORM;

export interface OrmOptions {
  url: string;
  poolSize?: number;
}

export async function createOrm({ url, poolSize = 10 }: OrmOptions): Promise<MikroORM> {
  return MikroORM.init({
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
    // Raw rows keep timestamps as Date (we map them ourselves), ints stay numbers.
    forceUtcTimezone: true,
    debug: false,
  });
}

/** The `pg.Pool` under the ORM: for the few hot-path statements written by hand. */
export async function nativePool(orm: MikroORM): Promise<pg.Pool> {
  return orm.em.getConnection().getNativeClient();
}

export const MIGRATION_NAMES = migrations.map((migration) => migration.name);
