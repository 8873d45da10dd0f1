/**
 * What a clone keeps outside itself, and its removal (`pnpm clean:data`). As root in a private
 * folder, postgres-process.ts puts the embedded server's data under /var/lib/sandbank/data/<hash>,
 * with a `<folder>.location` note at the folder it stands for, and copies the binaries once to
 * /var/lib/sandbank/postgres-<version> (shared by every clone on the machine). Deleting the clone
 * leaves all of that behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SHARED_ROOT } from './postgres-process.ts';

export interface RelocatedData {
  /** The note in the clone that names the folder. */
  note: string;
  /** Where the data lives. */
  dataDir: string;
  /** A server runs from it (its postmaster.pid names a live process). */
  running: boolean;
}

/** Every relocated data folder whose note lies under `folder`. */
export function findRelocatedData(folder: string): RelocatedData[] {
  const found: RelocatedData[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && !entry.isSymbolicLink()) walk(full);
      else if (entry.isFile() && entry.name.endsWith('.location')) {
        const dataDir = /lives in (\S+): /.exec(fs.readFileSync(full, 'utf8'))?.[1];
        // Only what postgres-process.ts placed there: a note can never send the removal elsewhere.
        if (dataDir?.startsWith(`${SHARED_ROOT}/data/`)) found.push({ note: full, dataDir, running: isRunning(dataDir) });
      }
    }
  };
  if (fs.existsSync(folder)) walk(folder);
  return found;
}

/** Removes a stopped relocated folder and its note. */
export function removeRelocatedData(data: RelocatedData): void {
  if (data.running) throw new Error(`a PostgreSQL server runs from ${data.dataDir}; stop it first`);
  fs.rmSync(data.dataDir, { recursive: true, force: true });
  fs.rmSync(data.note, { force: true });
}

/**
 * Removes the shared copies of the binaries once no relocated data folder is left (no clone on the
 * machine needs them any more) and no process runs from them; the paths removed.
 */
export function removeUnusedBinaries(): string[] {
  if (!fs.existsSync(SHARED_ROOT)) return [];
  const dataRoot = path.join(SHARED_ROOT, 'data');
  if (fs.existsSync(dataRoot) && fs.readdirSync(dataRoot).length > 0) return [];
  if (runsFromSharedRoot()) return [];
  const removed = fs.readdirSync(SHARED_ROOT).map((name) => path.join(SHARED_ROOT, name));
  fs.rmSync(SHARED_ROOT, { recursive: true, force: true });
  return removed;
}

function isRunning(dataDir: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function runsFromSharedRoot(): boolean {
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/exe`).startsWith(`${SHARED_ROOT}/`)) return true;
    } catch {}
  }
  return false;
}
