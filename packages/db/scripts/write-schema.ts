/**
 * Rewrites packages/db/schema.sql and src/generated/tables.ts: migrates a scratch database and
 * renders its schema (src/schema-reference.ts) and its tables' types (src/table-types.ts). Uses DATABASE_URL's server if given (a scratch database is created
 * and dropped on it), otherwise an embedded PostgreSQL in a temporary folder.
 */

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createOrm, migrateDatabase, startEmbeddedPostgres } from '../src/index.ts';
import { renderSchemaReference } from '../src/schema-reference.ts';
import { renderTableTypes } from '../src/table-types.ts';

const target = path.join(import.meta.dirname, '..', 'schema.sql');
const types = path.join(import.meta.dirname, '..', 'src', 'generated', 'tables.ts');
const database = `sandbank_schema_${randomBytes(4).toString('hex')}`;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbank-schema-'));

let stop = async () => {};
let adminUrl: string;
if (process.env.DATABASE_URL) {
  adminUrl = process.env.DATABASE_URL;
} else {
  const server = await startEmbeddedPostgres({ dataDir: scratch, port: 54379, database: 'postgres' });
  adminUrl = server.url;
  stop = server.stop;
}
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
try {
  await admin.query(`create database "${database}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const orm = await createOrm({ url: url.toString(), poolSize: 2 });
  try {
    await migrateDatabase(orm, url.toString());
  } finally {
    await orm.close();
  }
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    fs.writeFileSync(target, await renderSchemaReference(client));
    fs.writeFileSync(types, await renderTableTypes(client));
  } finally {
    await client.end();
  }
  console.log(`wrote ${path.relative(process.cwd(), target)} and ${path.relative(process.cwd(), types)}`);
} finally {
  await admin.query(`drop database if exists "${database}" with (force)`).catch(() => {});
  await admin.end();
  await stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}
