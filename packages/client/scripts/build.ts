/**
 * Builds the published package into dist/ (run by `prepack`, so `pnpm pack` always ships a fresh
 * build): one ES module bundled by esbuild, with the verification half of @sandbank/webhooks inside
 * and openapi-fetch left as the one dependency, and the declarations emitted by tsc.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.join(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
fs.rmSync(dist, { recursive: true, force: true });

await build({
  entryPoints: [path.join(root, 'src/index.ts')],
  outfile: path.join(dist, 'index.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['openapi-fetch'],
  sourcemap: true,
  legalComments: 'none',
});

const tsc = path.join(path.dirname(import.meta.resolve('typescript').replace('file://', '')), '..', 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
// The sources import each other as `./x.ts`; the published declarations sit beside `./x.js`.
for (const file of fs.readdirSync(dist).filter((name) => name.endsWith('.d.ts'))) {
  const declarations = path.join(dist, file);
  fs.writeFileSync(declarations, fs.readFileSync(declarations, 'utf8').replace(/(from '\.\/[\w.-]+)\.ts'/g, "$1.js'"));
}
console.log(`built ${path.relative(process.cwd(), dist)}`);
