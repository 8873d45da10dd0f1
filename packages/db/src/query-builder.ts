/**
 * The typed way to the database: Kysely over the EntityManager's connection, typed by the tables
 * the migrations make (src/generated/tables.ts). Inside `em.transactional(…)` the builder runs on
 * that transaction's connection (MikroORM binds `getKysely()` to the EntityManager's context), so
 * a query module mixes entities and typed statements in one unit of work.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from './generated/tables.ts';

export type { Database, Json } from './generated/tables.ts';

/** A Kysely builder typed by our tables, bound to `em` and its transaction. */
export const kysely = (em: EntityManager): Kysely<Database> => em.getKysely<Database>();

/**
 * A table's row as a select returns it. Hand-written hot statements name their rows from it
 * (`Pick<Row<'accounts'>, 'id' | 'balance'>`), so a column's type changed by a migration breaks them.
 */
export type Row<Table extends keyof Database> = Selectable<Database[Table]>;
