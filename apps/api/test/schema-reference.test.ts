/**
 * packages/db/schema.sql is the schema's reference (docs/architecture.md, "The schema"): it must be
 * what the migrations make. A migration that changes the schema without the snapshot fails here;
 * `pnpm --filter @sandbank/db schema` rewrites the snapshot.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderSchemaReference } from '@sandbank/db';
import { createTestDatabase, withClient } from '@sandbank/testing';
import { expect, it } from 'vitest';

const snapshot = path.join(import.meta.dirname, '..', '..', '..', 'packages', 'db', 'schema.sql');

it('packages/db/schema.sql is the schema the migrations make', async () => {
  const database = await createTestDatabase();
  try {
    const rendered = await withClient(database.url, (client) => renderSchemaReference(client));
    expect(rendered, 'run `pnpm --filter @sandbank/db schema` and commit packages/db/schema.sql').toBe(
      fs.readFileSync(snapshot, 'utf8'),
    );
  } finally {
    await database.drop();
  }
});
