// test/global-setup.ts — runs once, before any test file: the snapshot every test forks.
import { readFile } from 'node:fs/promises';
import { ensureSnapshot } from '@sandbank/client';

export default async function globalSetup() {
  const scenario = JSON.parse(await readFile(new URL('../../worlds-suite/test/family.json', import.meta.url), 'utf8'));
  // A new name when the scenario changes (here: a version); the same name reuses the snapshot.
  const snapshot = await ensureSnapshot({ name: 'worlds-suite family v1', scenario });
  // Test files run after the global setup (in its process or in workers it starts) and see its environment.
  process.env.BANK_SNAPSHOT = snapshot.id;
}
