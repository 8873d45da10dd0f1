/**
 * packages/db/schema.sql is the schema's reference (docs/architecture.md, "The schema"): it must be
 * what the migrations make. A migration that changes the schema without the snapshot fails here;
 * `pnpm --filter @sandbank/db schema` rewrites the snapshot.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderSchemaReference, renderTableTypes } from '@sandbank/db';
import { createTestDatabase, withClient } from '@sandbank/testing';
import { expect, it } from 'vitest';

const db = path.join(import.meta.dirname, '..', '..', '..', 'packages', 'db');
const snapshot = path.join(db, 'schema.sql');
const tableTypes = path.join(db, 'src', 'generated', 'tables.ts');

it('packages/db/schema.sql and the generated table types are the schema the migrations make', async () => {
  const database = await createTestDatabase();
  try {
    const rendered = await withClient(database.url, (client) => renderSchemaReference(client));
    expect(rendered, 'run `pnpm --filter @sandbank/db schema` and commit packages/db/schema.sql').toBe(
      fs.readFileSync(snapshot, 'utf8'),
    );
    const types = await withClient(database.url, (client) => renderTableTypes(client));
    expect(types, 'run `pnpm --filter @sandbank/db schema` and commit packages/db/src/generated/tables.ts').toBe(
      fs.readFileSync(tableTypes, 'utf8'),
    );
  } finally {
    await database.drop();
  }
});
