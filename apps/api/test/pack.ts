/**
 * A workspace package as someone outside the repository gets it: `pnpm pack` (its `prepack` builds
 * what it publishes) into `folder`, returning the tarball's path. pnpm is the one the test was
 * started by (`pnpm test`), or the one the README names.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export function packWorkspacePackage(name: 'client' | 'cli', folder: string): string {
  const packageDir = path.join(import.meta.dirname, '..', '..', '..', 'packages', name);
  const execPath = process.env.npm_execpath;
  const [command, prefix] = execPath && /pnpm/.test(execPath) ? [process.execPath, [execPath]] : ['npx', ['-y', 'pnpm@10']];
  execFileSync(command, [...prefix, 'pack', '--pack-destination', folder], { cwd: packageDir, encoding: 'utf8' });
  const tarball = fs.readdirSync(folder).find((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error(`pnpm pack left no tarball of packages/${name} in ${folder}`);
  return path.join(folder, tarball);
}
