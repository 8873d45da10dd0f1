/**
 * The production bundles of the API and the worker: apps/api/dist/main.js and
 * apps/worker/dist/main.js, one minified ES module each (esbuild), built when their sources
 * changed. `pnpm start` (without `--watch`), `pnpm bench` and the Docker image run them; `pnpm dev`
 * and the tests run the TypeScript sources as they are.
 *
 * Why: run from sources, Node strips the types of every workspace file with its WebAssembly
 * TypeScript parser, which then stays in memory, and loads about a thousand modules one by one.
 * One pre-built file skips both (bench/README.md, "Memory").
 *
 * The bundle behaves like the sources:
 * - `import.meta.url` in our own files still names the source file, so what is found relative to
 *   it (the console's build, swagger-ui's assets, the embedded PostgreSQL binaries) is found as
 *   before (the sources ship beside the bundle, as they do in the image);
 * - a few packages stay in node_modules and are required at run time from the source file that
 *   imports them, as Node would resolve them: argon2 (a native addon) and pino (its transports
 *   start worker threads from files beside it);
 * - optional packages that a dependency loads only on some paths (pg-native, typescript for
 *   TypeScript config files, dataloader) are left as plain imports, which fail as from sources
 *   if those paths are ever taken without the package installed.
 *
 * "Changed" is a SHA-256 over the workspace sources, the lockfile and this script, stored beside
 * each bundle. Run directly (`node scripts/build-server.ts`, part of the root `postinstall`) or
 * import `buildServer`.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { sourceHash } from './source-hash.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const APPS = ['api', 'worker'] as const;
type App = (typeof APPS)[number];
/** Required at run time from the importing source file instead of being bundled. */
const FROM_NODE_MODULES = new Set(['argon2', 'pino', 'pino-pretty']);
/** Optional packages loaded lazily by dependencies: left as plain imports. */
const OPTIONAL = new Set(['pg-native', 'typescript', 'dataloader']);
const SOURCES = ['apps/api/src', 'apps/worker/src', 'packages', 'pnpm-lock.yaml', 'scripts/build-server.ts'];

export function bundlePath(app: App): string {
  return path.join(root, 'apps', app, 'dist/main.js');
}

const stampOf = (app: App) => path.join(path.dirname(bundlePath(app)), '.source-hash');

const packageName = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? specifier);
const isWorkspaceSource = (file: string) => file.startsWith(root) && !file.includes(`${path.sep}node_modules${path.sep}`);

function serverPlugin(outdir: string): Plugin {
  /** `file` as a path relative to the bundle, for `new URL(…, import.meta.url)`. */
  const fromBundle = (file: string) => {
    const relative = path.relative(outdir, file).split(path.sep).join('/');
    return relative.startsWith('.') ? relative : `./${relative}`;
  };
  return {
    name: 'sandbank-server',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = packageName(args.path);
        if (OPTIONAL.has(name)) return { path: args.path, external: true };
        if (!FROM_NODE_MODULES.has(name)) return undefined;
        if (!isWorkspaceSource(args.importer))
          return { errors: [{ text: `${name} is imported by ${args.importer}: only our own sources may import it` }] };
        return { path: args.path, namespace: 'from-node-modules', pluginData: { importer: args.importer } };
      });
      // A CommonJS stand-in: the package, required from the source file that imports it.
      build.onLoad({ filter: /.*/, namespace: 'from-node-modules' }, (args) => {
        const importer = JSON.stringify(fromBundle((args.pluginData as { importer: string }).importer));
        return {
          contents: `module.exports = __createRequire(new URL(${importer}, __bundleUrl))(${JSON.stringify(args.path)});`,
          loader: 'js',
        };
      });
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!isWorkspaceSource(args.path)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const url = `new URL(${JSON.stringify(fromBundle(args.path))}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}

/** Builds both bundles unless they match the sources. */
export async function buildServer(log: (message: string) => void = console.log): Promise<'fresh' | 'built' | 'no-esbuild'> {
  const hash = sourceHash(root, SOURCES, (name) => ['node_modules', 'test', 'dist'].includes(name) || name.startsWith('.'));
  const fresh = APPS.every(
    (app) => existsSync(bundlePath(app)) && existsSync(stampOf(app)) && readFileSync(stampOf(app), 'utf8') === hash,
  );
  if (fresh) return 'fresh';
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    log('server: esbuild is not installed (production-only install?); the API and worker run from sources');
    return 'no-esbuild';
  }
  log('server: bundling apps/api and apps/worker (sources changed)…');
  for (const app of APPS) {
    const outdir = path.dirname(bundlePath(app));
    rmSync(outdir, { recursive: true, force: true });
    const result = await esbuild.build({
      entryPoints: { main: path.join(root, 'apps', app, 'src/main.ts') },
      outdir,
      // What main.ts imports dynamically goes into chunks loaded then: the API listens (and
      // answers /healthz) before the app is even parsed.
      splitting: true,
      chunkNames: '[name]-[hash]',
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      minify: true,
      keepNames: true,
      sourcemap: 'linked',
      sourcesContent: false,
      legalComments: 'none',
      metafile: true,
      logLevel: 'warning',
      // Bundled CommonJS packages require Node's own modules.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const __bundleUrl = import.meta.url; const require = __createRequire(__bundleUrl);",
      },
      plugins: [serverPlugin(outdir)],
    });
    // What went into the bundle, byte by byte (https://esbuild.github.io/analyze/ reads it).
    writeFileSync(path.join(outdir, 'meta.json'), JSON.stringify(result.metafile));
    writeFileSync(stampOf(app), hash);
  }
  return 'built';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outcome = await buildServer();
  if (outcome === 'fresh') console.log('server: bundles are up to date');
}
