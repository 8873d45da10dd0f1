/**
 * Part of the db package's typecheck: src/generated/tables.ts must be rendered from the migrations
 * as they are. A migration added or changed without `pnpm --filter @sandbank/db schema` fails here,
 * before a query typed by stale columns can pass `tsc`. (The schema-reference test compares the
 * rendered text itself against a migrated database.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { DIGEST_LINE, migrationsDigest } from '../src/table-types.ts';

const file = path.join(import.meta.dirname, '..', 'src', 'generated', 'tables.ts');
const recorded = DIGEST_LINE.exec(fs.readFileSync(file, 'utf8'))?.[1];
const current = migrationsDigest();
if (recorded !== current) {
  console.error(
    `packages/db/src/generated/tables.ts was rendered from other migrations (${recorded ?? 'no digest'}, now ${current}):\n` +
      'run `npx -y pnpm@10 --filter @sandbank/db schema` and commit schema.sql and src/generated/tables.ts.',
  );
  process.exit(1);
}
