/**
 * The tables' row types for Kysely, rendered from a migrated database's catalog like schema.sql
 * (schema-reference.ts) and checked in as `src/generated/tables.ts`. Queries written with
 * `kysely(em)` (query-builder.ts) are typed by them, and the hand-written hot statements name their
 * rows from them, so a column's type is stated once: by the migration that made it.
 *
 * Types are what our connections return, which is not node-postgres's default: MikroORM's pool
 * keeps dates, timestamps and intervals as PostgreSQL's text; `bigint` and `numeric` come back as
 * text (never a `Number`, which would round money past 2^53), `jsonb` parsed.
 *
 * The file also lists, as a tuple type, the migrations the database had applied (`RenderedMigrations`);
 * migrations/index.ts lists its migrations `satisfies` that tuple, so adding, renaming or removing a
 * migration without rendering this file again fails `tsc` itself. The header records a digest of the
 * migrations' text too: the db package's typecheck (`scripts/check-generated.ts`) fails when an
 * existing migration is edited without the file.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';

const SCHEMA = 'public';
const BOOKKEEPING = ['mikro_orm_migrations'];
const MIGRATIONS = path.join(import.meta.dirname, 'migrations');

/** The digest of every migration's file name and text, in name order. */
export function migrationsDigest(folder = MIGRATIONS): string {
  const hash = createHash('sha256');
  for (const name of fs
    .readdirSync(folder)
    .filter((file) => file.endsWith('.ts'))
    .sort()) {
    hash
      .update(name)
      .update('\0')
      .update(fs.readFileSync(path.join(folder, name)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 32);
}

export const DIGEST_LINE = /^\/\/ migrations digest: ([0-9a-f]{32})$/m;

/** A PostgreSQL type (format_type's spelling, no array brackets) as our connections return it. */
function scalar(type: string): { select: string; write: string } {
  if (/^(text|uuid|character varying.*|character.*|citext|xid8|inet)$/.test(type)) return { select: 'string', write: 'string' };
  if (/^(integer|smallint|real|double precision)$/.test(type)) return { select: 'number', write: 'number' };
  if (/^(bigint|numeric.*)$/.test(type)) return { select: 'string', write: 'string | bigint | number' };
  if (type === 'boolean') return { select: 'boolean', write: 'boolean' };
  if (/^(timestamp.*|date|interval|time.*)$/.test(type)) return { select: 'string', write: 'string | Date' };
  if (/^jsonb?$/.test(type)) return { select: 'Json', write: 'Json' };
  if (type === 'bytea') return { select: 'Buffer', write: 'Buffer' };
  throw new Error(`table-types.ts: no TypeScript type for PostgreSQL's ${type}; add it to scalar()`);
}

function columnType(type: string, notNull: boolean, hasDefault: boolean): string {
  const array = type.endsWith('[]');
  const base = scalar(array ? type.slice(0, -2) : type);
  const list = (text: string) => (array ? (text.includes('|') ? `(${text})[]` : `${text}[]`) : text);
  const nullable = notNull ? '' : ' | null';
  const select = `${list(base.select)}${nullable}`;
  const update = `${list(base.write)}${nullable}`;
  // A column with a default, or one that may be null, may be left out of an insert.
  const insert = hasDefault || !notNull ? `${update} | undefined` : update;
  return select === update && insert === update ? select : `ColumnType<${select}, ${insert}, ${update}>`;
}

const pascal = (name: string) => name.replace(/(^|_)([a-z0-9])/g, (_, __, letter: string) => letter.toUpperCase());

export async function renderTableTypes(client: pg.ClientBase, digest = migrationsDigest()): Promise<string> {
  const { rows } = await client.query<{ table: string; name: string; type: string; notnull: boolean; hasdefault: boolean }>(
    `select c.relname as table, a.attname as name, format_type(a.atttypid, null) as type, a.attnotnull as notnull,
            (a.atthasdef or a.attidentity <> '' or a.attgenerated <> '') as hasdefault
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p') and c.relname <> all($2) and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`,
    [SCHEMA, BOOKKEEPING],
  );
  const applied = await client.query<{ name: string }>('select name from mikro_orm_migrations order by name');
  const tables = new Map<string, string[]>();
  for (const row of rows) {
    const lines = tables.get(row.table) ?? [];
    lines.push(`  ${row.name}: ${columnType(row.type, row.notnull, row.hasdefault)};`);
    tables.set(row.table, lines);
  }
  const out = [
    '// The tables as Kysely sees them, rendered from a migrated database by packages/db/src/table-types.ts.',
    '// Do not edit: migrations change the schema; `pnpm --filter @sandbank/db schema` rewrites this file.',
    `// migrations digest: ${digest}`,
    "import type { ColumnType } from 'kysely';",
    '',
    '/** A `jsonb` value as node-postgres parses it. */',
    'export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };',
    '',
  ];
  for (const [table, lines] of tables) out.push(`interface ${pascal(table)}Table {`, ...lines, '}', '');
  out.push('/** Every table of the public schema, by name. */', 'export interface Database {');
  for (const table of tables.keys()) out.push(`  ${table}: ${pascal(table)}Table;`);
  out.push('}', '');
  out.push(
    '/** The migrations this file was rendered from, in order: migrations/index.ts must list exactly these. */',
    'export type RenderedMigrations = readonly [',
    ...applied.rows.map((row) => `  '${row.name}',`),
    '];',
    '',
  );
  return out.join('\n');
}
