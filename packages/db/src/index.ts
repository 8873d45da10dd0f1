export { UniqueConstraintViolationException } from '@mikro-orm/core';
export { acquireAdvisoryLock, type HeldLock } from './advisory-lock.ts';
export {
  checkReadiness,
  type DatabaseServer,
  MIGRATION_LOCK_ID,
  migrateDatabase,
  type Readiness,
  resolveDatabase,
} from './database.ts';
export { createDatabaseIfMissing, embeddedServerUrl, startEmbeddedPostgres } from './embedded.ts';
export * from './entities/index.ts';
export { executeHot, type HotStatement } from './hot-statement.ts';
export { createOrm, createReadOrm, type EntityManager, MIGRATION_NAMES, nativePool, type Orm } from './orm.ts';
export { EmbeddedPostgresError } from './postgres-process.ts';
export { type Database, type Json, kysely, type Row } from './query-builder.ts';
export { findRelocatedData, type RelocatedData, removeRelocatedData, removeUnusedBinaries } from './relocated-data.ts';
export { renderSchemaReference } from './schema-reference.ts';
export { openSnapshot, type Snapshot } from './snapshot.ts';
export { renderTableTypes } from './table-types.ts';
