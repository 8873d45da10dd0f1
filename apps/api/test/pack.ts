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

/**
 * The registry dependencies of a workspace package, and theirs, packed from the copies installed in
 * this repository into `folder` (their scripts not run): given to `npm install --offline` beside the
 * package's own tarball, they make the install need no registry, so a flaky network cannot fail the
 * test. Each is found as Node finds it: `node_modules` of its dependent's real folder, then upwards.
 */
export function packDependencies(name: 'client' | 'cli', folder: string): string[] {
  fs.mkdirSync(folder, { recursive: true });
  const packed = new Map<string, string>();
  const visit = (dir: string) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (packed.has(dependency)) continue;
      const found = installedDir(dir, dependency);
      // A copy first: pnpm's store hardlinks identical files, npm packs those as tar links, and npm's
      // own install skips links (here: two of openapi-typescript-helpers' three type files).
      const copy = fs.mkdtempSync(path.join(folder, 'copy-'));
      fs.cpSync(found, copy, { recursive: true });
      const file = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', folder, copy], {
        encoding: 'utf8',
      }).trim();
      packed.set(dependency, path.join(folder, file.split('\n').at(-1) ?? ''));
      visit(found);
    }
  };
  visit(path.join(import.meta.dirname, '..', '..', '..', 'packages', name));
  return [...packed.values()];
}

function installedDir(from: string, dependency: string): string {
  for (let dir = fs.realpathSync(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', dependency);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (path.dirname(dir) === dir) throw new Error(`${dependency} is not installed where ${from} would find it`);
  }
}
