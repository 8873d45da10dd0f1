/**
 * The embedded PostgreSQL from a clone in a private folder (issue 11): as root, the server runs as
 * the unprivileged `postgres` user, which cannot reach a mode-700 folder such as /root or a
 * `mktemp -d`. The launcher must still start it (binaries and data placed where that user can
 * reach them, the private folder left closed), keep the data across restarts, and stop it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@sandbank/db';
import { freePort, withClient } from '@sandbank/testing';
import { afterAll, expect, it } from 'vitest';

const isRoot = process.getuid?.() === 0;
const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbank-private-'));
afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

const query = (url: string, text: string) => withClient(url, async (client) => (await client.query(text)).rows);

// Only root switches to the postgres user; as anyone else the folder is the user's own and reachable.
it.runIf(isRoot)(
  'starts from a data folder under a mode-700 parent, keeps its data across a restart, and stops',
  async () => {
    fs.chmodSync(parent, 0o700);
    const dataDir = path.join(parent, 'clone', '.data');
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port, database: 'private_test' });
    await query(first.url, 'create table kept (n int); insert into kept values (42)');
    await first.stop();

    expect(fs.statSync(parent).mode & 0o777).toBe(0o700); // nothing of the private folder was opened up
    expect(fs.readFileSync(`${path.join(dataDir, 'pg')}.location`, 'utf8')).toContain('/var/lib/sandbank/data/');
    const owner = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const relocated = /lives in (\S+):/.exec(fs.readFileSync(`${path.join(dataDir, 'pg')}.location`, 'utf8'))?.[1] as string;
    expect(String(fs.statSync(relocated).uid)).toBe(owner);
    expect(fs.statSync(relocated).mode & 0o777).toBe(0o700);

    const again = await startEmbeddedPostgres({ dataDir, port, database: 'private_test' });
    expect(await query(again.url, 'select n from kept')).toEqual([{ n: 42 }]);
    await again.stop();
    await expect(query(again.url, 'select 1')).rejects.toThrow();
    fs.rmSync(relocated, { recursive: true, force: true });
  },
  120_000,
);
