/**
 * The database's schema as one readable text, rendered from a migrated database's catalog:
 * `packages/db/schema.sql` is this text, checked in. Migrations change the schema; the snapshot is
 * what a reader reads (every table, column, constraint, index, function and trigger in one place),
 * and a test fails when a migration changes the schema without the snapshot
 * (`pnpm --filter @sandbank/db schema` rewrites it). See docs/architecture.md, "The schema".
 *
 * Rendered from the catalog rather than by pg_dump: no client binary is needed (the embedded
 * server ships none), and the text is the same on every PostgreSQL version we run (15 and 18):
 * only the parts each version spells alike are used, in a fixed order.
 */
import type pg from 'pg';

/** The schema our migrations own. graphile-worker's own schema is its business. */
const SCHEMA = 'public';

/** MikroORM's migration bookkeeping: present in every database, not part of the model. */
const BOOKKEEPING = ['mikro_orm_migrations'];

async function rows<T>(client: pg.ClientBase, sql: string): Promise<T[]> {
  return (await client.query(sql, [SCHEMA, BOOKKEEPING])).rows as T[];
}

export async function renderSchemaReference(client: pg.ClientBase): Promise<string> {
  const tables = await rows<{ name: string }>(
    client,
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p') and c.relname <> all($2) order by c.relname`,
  );
  const columns = await rows<{ table: string; name: string; type: string; notnull: boolean; def: string | null }>(
    client,
    `select c.relname as table, a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as notnull,
            pg_get_expr(d.adbin, d.adrelid) as def
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname = $1 and c.relkind in ('r', 'p') and c.relname <> all($2) and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`,
  );
  // Primary, unique, foreign-key, check and exclusion constraints (PostgreSQL 18 also lists NOT NULL
  // here; the columns say that already).
  const constraints = await rows<{ table: string; name: string; def: string }>(
    client,
    `select c.relname as table, k.conname as name, pg_get_constraintdef(k.oid, true) as def
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relname <> all($2) and k.contype in ('p', 'u', 'f', 'c', 'x')
      order by c.relname, position(k.contype in 'pufcx'), k.conname`,
  );
  const indexes = await rows<{ def: string }>(
    client,
    `select pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
       join pg_class ic on ic.oid = i.indexrelid
      where n.nspname = $1 and c.relname <> all($2)
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid and k.contype in ('p', 'u', 'x'))
      order by c.relname, ic.relname`,
  );
  const functions = await rows<{ name: string; def: string }>(
    client,
    `select p.proname as name, pg_get_functiondef(p.oid) as def
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = $1 and p.prokind in ('f', 'p') and cardinality($2::text[]) >= 0
      order by p.proname, pg_get_function_identity_arguments(p.oid)`,
  );
  const triggers = await rows<{ def: string }>(
    client,
    `select pg_get_triggerdef(t.oid) as def
       from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relname <> all($2) and not t.tgisinternal
      order by c.relname, t.tgname`,
  );
  const views = await rows<{ name: string; def: string }>(
    client,
    `select c.relname as name, pg_get_viewdef(c.oid, true) as def
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('v', 'm') and c.relname <> all($2) order by c.relname`,
  );

  const out: string[] = [
    "-- The schema of Sandbank's database, rendered from a migrated database by packages/db/src/schema-reference.ts.",
    '-- Do not edit: migrations change the schema; `pnpm --filter @sandbank/db schema` rewrites this file.',
    '',
  ];
  for (const { name } of tables) {
    const lines = [
      ...columns
        .filter((column) => column.table === name)
        .map(
          (column) =>
            `  ${column.name} ${column.type}${column.notnull ? ' not null' : ''}${column.def === null ? '' : ` default ${column.def}`}`,
        ),
      ...constraints
        .filter((constraint) => constraint.table === name)
        .map((constraint) => `  constraint ${constraint.name} ${constraint.def}`),
    ];
    out.push(`create table ${name} (`, lines.join(',\n'), ');', '');
  }
  for (const { def } of indexes) out.push(`${def.replace(` ${SCHEMA}.`, ' ')};`);
  if (indexes.length > 0) out.push('');
  for (const { name, def } of views) out.push(`create view ${name} as`, `${def.trim()}`, '');
  for (const { def } of functions) out.push(`${def.trim()};`, '');
  for (const { def } of triggers) out.push(`${def.replaceAll(`${SCHEMA}.`, '')};`);
  return `${out.join('\n').trimEnd()}\n`;
}
