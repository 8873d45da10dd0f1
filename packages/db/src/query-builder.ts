/**
 * The typed way to the database: Kysely over the EntityManager's connection, typed by the tables
 * the migrations make (src/generated/tables.ts). Inside `em.transactional(…)` the builder runs on
 * that transaction's connection (MikroORM binds `getKysely()` to the EntityManager's context), so
 * a query module mixes entities and typed statements in one unit of work.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Kysely } from 'kysely';
import type { Database } from './generated/tables.ts';

export type { Database, Json } from './generated/tables.ts';

/** A Kysely builder typed by our tables, bound to `em` and its transaction. */
export const kysely = (em: EntityManager): Kysely<Database> => em.getKysely<Database>();
