/**
 * `pnpm clean:data` (scripts/clean-data.ts): as root, a clone in a private folder keeps its
 * embedded PostgreSQL's data under /var/lib/sandbank/data/ (packages/db/src/postgres-process.ts);
 * the script removes it, and refuses while a server still runs from it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '@sandbank/db';
import { freePort } from '@sandbank/testing';
import { afterAll, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const privateFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbank-clone-')); // mode 700, like /root
let stopServer = async () => {};
let relocated: string | undefined;
afterAll(async () => {
  await stopServer();
  for (const dir of [privateFolder, relocated]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const cleanData = () =>
  spawnSync(process.execPath, ['scripts/clean-data.ts', path.join(privateFolder, '.data')], { cwd: repoRoot, encoding: 'utf8' });

it.runIf(process.getuid?.() === 0)(
  "removes the data a private folder's server kept under /var/lib/sandbank, once it is stopped",
  { timeout: 60_000 },
  async () => {
    const server = await startEmbeddedPostgres({
      dataDir: path.join(privateFolder, '.data'),
      port: await freePort(),
      database: 'postgres',
    });
    stopServer = server.stop;
    const note = path.join(privateFolder, '.data', 'pg.location');
    relocated = /lives in (\S+): /.exec(fs.readFileSync(note, 'utf8'))?.[1];
    expect(relocated).toMatch(/^\/var\/lib\/sandbank\/data\/[0-9a-f]{16}$/);
    expect(fs.existsSync(path.join(relocated ?? '', 'PG_VERSION'))).toBe(true);

    const refused = cleanData();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`kept ${relocated}: a PostgreSQL server runs from it`);
    expect(fs.existsSync(path.join(relocated ?? '', 'PG_VERSION'))).toBe(true);

    await server.stop();
    const cleaned = cleanData();
    expect({ status: cleaned.status, stderr: cleaned.stderr }).toEqual({ status: 0, stderr: '' });
    expect(cleaned.stdout).toContain(`removed ${relocated} (${note})`);
    expect(fs.existsSync(relocated ?? '')).toBe(false);
    expect(fs.existsSync(note)).toBe(false);
  },
);
