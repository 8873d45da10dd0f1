/**
 * `pnpm clean:data [folder …]`: removes the PostgreSQL data this clone keeps outside itself. Run as
 * root from a private folder, the embedded server's data (the service's and the tests') lives under
 * /var/lib/sandbank/data/, named by `.location` notes in the clone's `.data` (and DATA_DIR), and the
 * binaries are copied to /var/lib/sandbank/postgres-<version>; deleting the clone leaves them behind.
 * Run it before deleting the clone. It removes every such folder whose note is under the given
 * folders (default: the clone's `.data`, and DATA_DIR when set), refuses one a server still runs
 * from (stop `pnpm start` or the tests first; exit 1), and removes the binaries' copy once no clone's
 * data is left there. The clone's own `.data` is not touched.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRelocatedData, removeRelocatedData, removeUnusedBinaries } from '@sandbank/db';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const asked = process.argv.slice(2);
const folders = asked.length > 0 ? asked : [path.join(root, '.data'), ...(process.env.DATA_DIR ? [process.env.DATA_DIR] : [])];
let refused = 0;
for (const data of new Map(folders.flatMap(findRelocatedData).map((found) => [found.note, found])).values()) {
  if (data.running) {
    console.error(`kept ${data.dataDir}: a PostgreSQL server runs from it (${data.note}); stop it, then run this again`);
    refused++;
    continue;
  }
  removeRelocatedData(data);
  console.log(`removed ${data.dataDir} (${data.note})`);
}
for (const removed of removeUnusedBinaries()) console.log(`removed ${removed}`);
process.exit(refused > 0 ? 1 : 0);
