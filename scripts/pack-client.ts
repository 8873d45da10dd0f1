/**
 * Packs `@sandbank/client` the way an app outside this repo gets it: one ES module (esbuild; the
 * client, its `@sandbank/webhooks` and its npm dependencies bundled, so the tarball installs with no
 * registry), a package.json naming it, packed by `npm pack` into `.data/packs/`. Prints the tarball's
 * path. The workspace itself keeps using the TypeScript sources.
 *
 * Not in the tarball yet: type declarations (the tRPC client's types come from the server's router,
 * which is not published); an app that type-checks against it sees `any`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function packClient(): Promise<string> {
  const esbuild = await import('esbuild');
  const source = JSON.parse(readFileSync(path.join(root, 'packages/client/package.json'), 'utf8')) as {
    version: string;
    description: string;
  };
  const stage = path.join(root, '.data/pack-client/package');
  const out = path.join(root, '.data/packs');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  mkdirSync(out, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(root, 'packages/client/src/index.ts')],
    outfile: path.join(stage, 'dist/index.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    legalComments: 'none',
    logLevel: 'warning',
  });
  writeFileSync(
    path.join(stage, 'package.json'),
    `${JSON.stringify(
      {
        name: '@sandbank/client',
        version: source.version,
        description: source.description,
        type: 'module',
        exports: { '.': './dist/index.js' },
        engines: { node: '>=22.18' },
        license: 'MIT',
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    path.join(stage, 'README.md'),
    '# @sandbank/client\n\nThe TypeScript client of Sandbank, with `withWorld` for test suites: see docs/guides/testing-your-app.md in the Sandbank repository.\n',
  );
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: stage, encoding: 'utf8' }).trim();
  return path.join(out, name.split('\n').at(-1) ?? name);
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await packClient());
