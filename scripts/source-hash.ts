/**
 * The SHA-256 of a set of sources (files and folders, walked in a fixed order), by which the console
 * and server builds decide whether their output is stale: each path and its bytes go in.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every file under `entry` (relative to `root`), sorted; `skip` leaves out a file or folder by its name. */
function filesOf(root: string, entry: string, skip: (name: string) => boolean): string[] {
  const full = path.join(root, entry);
  if (!existsSync(full) || skip(path.basename(entry))) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full)
    .sort()
    .flatMap((name) => filesOf(root, path.join(entry, name), skip));
}

export function sourceHash(root: string, sources: readonly string[], skip: (name: string) => boolean = () => false): string {
  const hash = createHash('sha256');
  for (const file of sources.flatMap((entry) => filesOf(root, entry, skip)))
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)));
  return hash.digest('hex');
}
